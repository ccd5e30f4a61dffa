package api_test

import (
	"net/url"
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesUserStatus adds the bad-input cases of the routes whose handlers are in user_status.go.
func routeCasesUserStatus(add func(routeSpec)) {
	status := routeSpec{method: "POST", pattern: "/api/v1/users/me/status", path: "/api/v1/users/me/status", role: fixtures.RoleMember,
		params: []param{
			{name: "away", kind: kBool},
			{name: "status_text", oversizeFails: true},
			{name: "emoji_name", oversizeFails: true},
			{name: "emoji_code", oversizeFails: true},
			{name: "reaction_type", oversizeFails: true},
		},
		valid: []string{"status_text", "at lunch", "emoji_name", "coffee"}}
	withOnly := func(kv ...string) request {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return status.build(v)
	}
	status.extra = []badCase{
		{"nothing to change", withOnly(), badRequest("Client did not pass any new values.")},
		{"status text too long (all or nothing)", status.with("status_text", strings.Repeat("s", 61)), badRequest("status_text is too long (limit: 60 characters)")},
		{"emoji code alone (nothing to change)", withOnly("emoji_code", "2615"), badRequest("Client did not pass any new values.")},
		{"emoji code without a name", withOnly("status_text", "x", "emoji_code", "2615"), badRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.")},
		{"a bot", status.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
		{"reaction type without a name", withOnly("status_text", "x", "reaction_type", "unicode_emoji"), badRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.")},
		{"unknown emoji", status.with("emoji_name", "nonesuch"), badRequest("Emoji 'nonesuch' does not exist")},
		{"code of another emoji", status.as(memberAuth, "emoji_code", "2764"), badRequest("Invalid emoji name.")},
		{"malformed emoji code", status.as(memberAuth, "emoji_code", "zz"), badRequest("Invalid emoji code.")},
		{"unknown reaction type", status.with("reaction_type", "sticker"), badRequest("Invalid emoji type.")},
		{"deactivated custom emoji", status.as(memberAuth, "emoji_name", "setup_gone", "emoji_code", "2", "reaction_type", "realm_emoji"), badRequest("This custom emoji has been deactivated.")},
	}
	add(status)

	statusOf := routeSpec{method: "POST", pattern: "/api/v1/users/{user_id:[0-9]+}/status", path: "/api/v1/users/{id}/status", id: "4",
		notFound: "No such user", role: fixtures.RoleAdmin, params: status.params[1:], valid: status.valid}
	onUser := func(id string) request {
		r := statusOf.as(adminAuth)
		r.path = "/api/v1/users/" + id + "/status"
		return r
	}
	statusOf.extra = []badCase{
		{"as a member", statusOf.as(memberAuth), principalAdmin},
		{"a bot", onUser("6"), badRequest("No such user")},
		{"nothing to change", statusOf.build(url.Values{}), badRequest("Client did not pass any new values.")},
		{"unknown emoji", statusOf.with("emoji_name", "nonesuch"), badRequest("Emoji 'nonesuch' does not exist")},
	}
	add(statusOf)

	getStatus := routeSpec{method: "GET", pattern: "/api/v1/users/{user_id:[0-9]+}/status", path: "/api/v1/users/{id}/status", id: "4",
		notFound: "No such user", role: fixtures.RoleGuest}
	getStatus.extra = []badCase{{"a bot's", onPath("/api/v1/users/6/status", getStatus.as(guestAuth)), badRequest("No such user")}}
	add(getStatus)
}
