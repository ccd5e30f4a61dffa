package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesUpdateUserByEmail adds the bad-input cases of the routes whose handlers are in update_user_by_email.go.
func routeCasesUpdateUserByEmail(add func(routeSpec)) {
	byEmail := routeSpec{method: "PATCH", pattern: "/api/v1/users/{email:[^/]*(?:@|%40)[^/]*}", path: "/api/v1/users/" + memberEmail,
		role: fixtures.RoleOwner,
		params: []param{
			{name: "full_name", oversizeFails: true}, {name: "role", kind: kInt},
			{name: "profile_data", kind: kJSONList}, {name: "new_email", oversizeFails: true},
		},
		valid: []string{"full_name", "Renamed Member"}}
	profile := func(json string) request { return byEmail.with("profile_data", json) }
	byEmail.extra = []badCase{
		{"unknown email", onPath("/api/v1/users/nobody@chat.example.test", byEmail.with("full_name", "X")), badRequest("No such user")},
		{"dummy address of an unknown id", onPath("/api/v1/users/user999@chat.example.test", byEmail.with("full_name", "X")), badRequest("No such user")},
		{"dummy address of another realm host", onPath("/api/v1/users/user4@other.example.test", byEmail.with("full_name", "X")), badRequest("No such user")},
		{"percent-encoded @", onPath("/api/v1/users/nobody%40chat.example.test", byEmail.with("full_name", "X")), badRequest("No such user")},
		{"member changing a user", byEmail.as(memberAuth), insufficient},
		{"moderator changing a role", byEmail.as(modAuth, "role", "300"), insufficient},
		{"guest", byEmail.as(guestAuth), insufficient},
		{"role between values", byEmail.with("role", "250"), badRequest("Invalid role")},
		{"role beyond 32 bits", byEmail.with("role", "4294967696"), badRequest("Invalid role")},
		{"administrator making an owner", byEmail.as(adminAuth, "role", "100"), ownerPrincipal},
		{"administrator demoting the owner", onPath("/api/v1/users/owner@chat.example.test", byEmail.as(adminAuth, "role", "200")), ownerPrincipal},
		{"the only owner demoting themselves", onPath("/api/v1/users/owner@chat.example.test", byEmail.with("role", "200")), badRequest("The owner permission cannot be removed from the only organization owner.")},
		{"a guest made an administrator", onPath("/api/v1/users/guest@chat.example.test", byEmail.with("role", "200")), badRequest("Guests cannot be organization administrators")},
		{"a guest made an owner", onPath("/api/v1/users/guest@chat.example.test", byEmail.with("role", "100")), badRequest("Guests cannot be organization administrators")},
		{"name with bad characters", byEmail.with("full_name", "Bad*Name"), badRequest("Invalid characters in name!")},
		{"profile_data: item not an object", profile("[1]"), badRequest("profile_data[0] is not a dict")},
		{"profile_data: no id", profile(`[{"value":"x"}]`), badRequest(`profile_data[0]["id"] is missing`)},
		{"profile_data: no value", profile(`[{"id":1}]`), badRequest(`profile_data[0]["value"] is missing`)},
		{"profile_data: id a string", profile(`[{"id":"1","value":"x"}]`), badRequest(`profile_data[0]["id"] is not an integer`)},
		{"profile_data: id a float", profile(`[{"id":1.5,"value":"x"}]`), badRequest(`profile_data[0]["id"] is not an integer`)},
		{"profile_data: unexpected key", profile(`[{"id":1,"value":"x","extra":1}]`), badRequest(`Argument "extra" at profile_data[0] is unexpected`)},
		{"profile_data: value a number", profile(`[{"id":1,"value":5}]`), badRequest(`profile_data[0]["value"] is not a string, a list of integers or null`)},
		{"profile_data: value a list of strings", profile(`[{"id":4,"value":["4"]}]`), badRequest(`profile_data[0]["value"][0] is not an integer`)},
		{"profile_data: unknown field", profile(`[{"id":999,"value":"x"}]`), badRequest("Field id 999 not found.")},
		{"profile_data: unknown field, null", profile(`[{"id":999,"value":null}]`), badRequest("Field id 999 not found.")},
		{"profile_data: text too long", profile(`[{"id":1,"value":"` + strings.Repeat("9", 51) + `"}]`), badRequest("Phone number is too long (limit: 50 characters)")},
		{"profile_data: text given user IDs", profile(`[{"id":1,"value":[4]}]`), badRequest("Phone number is not a string")},
		{"profile_data: link not a URL", profile(`[{"id":3,"value":"not a link"}]`), badRequest("Website is not a URL")},
		{"profile_data: link without a host", profile(`[{"id":3,"value":"https://"}]`), badRequest("Website is not a URL")},
		{"profile_data: users given a string", profile(`[{"id":4,"value":"Max Member"}]`), badRequest("Mentor is not a list")},
		{"profile_data: users with an unknown ID", profile(`[{"id":4,"value":[4,999]}]`), badRequest("Invalid user ID: 999")},
		{"profile_data: date not a date", profile(`[{"id":5,"value":"yesterday"}]`), badRequest("Birthday is not a date")},
		{"profile_data: good then bad (all or nothing)", byEmail.as(ownerAuth, "full_name", "Half Change", "profile_data", `[{"id":1,"value":"123"},{"id":3,"value":"nope"}]`), badRequest("Website is not a URL")},
		{"new_email by an administrator", byEmail.as(adminAuth, "new_email", "moved@chat.example.test"), ownerPrincipal},
		{"new_email not an address", byEmail.with("new_email", "nowhere"), badRequest("Invalid email 'nowhere'")},
		{"new_email in use", byEmail.with("new_email", "guest@chat.example.test"), badRequest("Email is already in use.")},
		{"new_email and a bad role (all or nothing)", byEmail.as(ownerAuth, "new_email", "moved@chat.example.test", "role", "7"), badRequest("Invalid role")},
	}
	add(byEmail)
}
