package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesEmoji adds the bad-input cases of the routes whose handlers are in emoji.go.
func routeCasesEmoji(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/api/v1/realm/emoji", path: "/api/v1/realm/emoji", role: fixtures.RoleGuest})
}
