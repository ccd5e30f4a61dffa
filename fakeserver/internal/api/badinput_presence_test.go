package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesPresence adds the bad-input cases of the routes whose handlers are in presence.go.
func routeCasesPresence(add func(routeSpec)) {
	presence := routeSpec{method: "POST", pattern: "/api/v1/users/me/presence", path: "/api/v1/users/me/presence", role: fixtures.RoleMember,
		params: []param{
			{name: "status", required: true, oversizeFails: true},
			{name: "ping_only", kind: kBool}, {name: "new_user_input", kind: kBool}, {name: "slim_presence", kind: kBool},
			{name: "last_update_id", kind: kInt}, {name: "history_limit_days", kind: kInt},
		},
		valid: []string{"status", "active"}}
	presence.extra = []badCase{
		{"unknown status", presence.with("status", "away"), badRequest("Invalid status: away")},
		{"negative history_limit_days", presence.with("history_limit_days", "-1"), badRequest("history_limit_days is too small")},
		{"bot", presence.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
	}
	add(presence)

	// The path takes an ID or an email, so a non-numeric segment is an email, not a 404.
	presence = routeSpec{method: "GET", pattern: "/api/v1/users/{user_id_or_email:(?:[^/][^/][^/]+|[^/m][^/]?|m[^/e]?)}/presence", path: "/api/v1/users/4/presence", role: fixtures.RoleGuest}
	presenceOf := func(who string) request {
		return request{method: "GET", path: "/api/v1/users/" + who + "/presence", auth: guestAuth}
	}
	presence.extra = []badCase{
		{"unknown ID", presenceOf("999"), badRequest("No such user")},
		{"ID zero", presenceOf("0"), badRequest("No such user")},
		{"ID beyond the range", presenceOf(huge), badRequest("No such user")},
		{"unknown email", presenceOf("nobody@chat.example.test"), badRequest("No such user")},
		{"a word", presenceOf("abc"), badRequest("No such user")},
		{"a bot", presenceOf("6"), badRequest("Presence is not supported for bot users.")},
		{"a user who never reported", presenceOf("owner@chat.example.test"), badRequest("No presence data for owner@chat.example.test")},
	}
	add(presence)

	add(routeSpec{method: "GET", pattern: "/api/v1/realm/presence", path: "/api/v1/realm/presence", role: fixtures.RoleGuest})
}
