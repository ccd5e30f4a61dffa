package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesUserSettingsDefaults adds the bad-input cases of the routes whose handlers are in
// user_settings_defaults.go.
func routeCasesUserSettingsDefaults(add func(routeSpec)) {
	defaults := routeSpec{method: "PATCH", pattern: "/api/v1/realm/user_settings_defaults", path: "/api/v1/realm/user_settings_defaults",
		role: fixtures.RoleAdmin,
		params: []param{
			{name: "enter_sends", kind: kBool}, {name: "color_scheme", kind: kInt},
			{name: "email_notifications_batching_period_seconds", kind: kInt},
		},
		valid: []string{"enter_sends", "true"}}
	defaults.extra = []badCase{
		{"member", defaults.as(memberAuth), principalAdmin},
		{"a color scheme out of its values", defaults.with("color_scheme", "4"), badRequest("Invalid color_scheme")},
		{"an emoji set out of its values", defaults.with("emojiset", "apple"), badRequest("Invalid emojiset")},
		{"a web home view as a number", defaults.with("web_home_view", "1"), badRequest("Invalid web_home_view")},
		{"an unknown notification sound", defaults.with("notification_sound", "gong"), badRequest("Invalid notification sound 'gong'")},
		{"a batching period of zero", defaults.with("email_notifications_batching_period_seconds", "0"), badRequest("Invalid email batching period: 0 seconds")},
		{"a batching period over a week", defaults.with("email_notifications_batching_period_seconds", "604801"), badRequest("Invalid email batching period: 604801 seconds")},
	}
	add(defaults)
}
