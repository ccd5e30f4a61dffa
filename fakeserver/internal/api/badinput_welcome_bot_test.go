package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesWelcomeBot adds the bad-input cases of the route whose handler is in
// welcome_bot.go.
func routeCasesWelcomeBot(add func(routeSpec)) {
	welcome := routeSpec{method: "POST", pattern: "/api/v1/realm/test_welcome_bot_custom_message", path: "/api/v1/realm/test_welcome_bot_custom_message",
		role: fixtures.RoleAdmin, params: []param{{name: "welcome_message_custom_text", required: true, oversizeFails: true}},
		valid: []string{"welcome_message_custom_text", "Welcome aboard"}}
	welcome.extra = []badCase{
		{"member", welcome.as(memberAuth), principalAdmin},
		{"empty", welcome.with("welcome_message_custom_text", ""), badRequest("Message must not be empty")},
		{"over 8000 characters", welcome.with("welcome_message_custom_text", strings.Repeat("é", 8001)),
			badRequest("welcome_message_custom_text is too long (limit: 8000 characters)")},
	}
	add(welcome)
}
