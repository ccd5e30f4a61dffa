package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesUsers adds the bad-input cases of the routes whose handlers are in users.go.
func routeCasesUsers(add func(routeSpec)) {
	fetch := routeSpec{method: "POST", pattern: "/api/v1/fetch_api_key", path: "/api/v1/fetch_api_key",
		params: []param{{name: "username", required: true, oversizeFails: true}, {name: "password", required: true, oversizeFails: true}},
		valid:  []string{"username", "owner@chat.example.test", "password", "owner-password"}}
	fetch.extra = []badCase{
		{"wrong password", fetch.with("password", "nope"), bad(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")},
		{"unknown user", fetch.with("username", "nobody@chat.example.test"), bad(401, "AUTHENTICATION_FAILED", "")},
		{"username not an email", fetch.with("username", "owner"), badRequest("Enter a valid email address.")},
		{"bot login", fetch.with("username", "helper-bot@chat.example.test"), bad(401, "AUTHENTICATION_FAILED", "")},
		{"empty password", fetch.with("password", ""), bad(401, "AUTHENTICATION_FAILED", "")},
	}
	add(fetch)

	add(routeSpec{method: "GET", pattern: "/api/v1/users", path: "/api/v1/users", role: fixtures.RoleGuest,
		params: []param{{name: "client_gravatar", kind: kBool}, {name: "include_custom_profile_fields", kind: kBool}}})

	add(routeSpec{method: "GET", pattern: "/api/v1/users/me", path: "/api/v1/users/me", role: fixtures.RoleBot})

	add(routeSpec{method: "GET", pattern: "/api/v1/users/{user_id:[0-9]+}", path: "/api/v1/users/{id}", id: "4",
		notFound: "No such user", role: fixtures.RoleMember,
		params: []param{{name: "client_gravatar", kind: kBool}, {name: "include_custom_profile_fields", kind: kBool}}})

	upd := routeSpec{method: "PATCH", pattern: "/api/v1/users/{user_id:[0-9]+}", path: "/api/v1/users/{id}", id: "4",
		notFound: "No such user", role: fixtures.RoleOwner,
		params: []param{{name: "full_name", oversizeFails: true}, {name: "role", kind: kInt}},
		valid:  []string{"full_name", "Renamed Member"}}
	upd.extra = []badCase{
		{"role negative", upd.with("role", "-1"), badRequest("Invalid role")},
		{"role zero", upd.with("role", "0"), badRequest("Invalid role")},
		{"role between values", upd.with("role", "250"), badRequest("Invalid role")},
		{"role bot-ish value", upd.with("role", "700"), badRequest("Invalid role")},
		{"role as name", upd.with("role", "owner"), badRequest("role is not valid JSON")},
		{"name with bad characters", upd.with("full_name", "Bad*Name"), badRequest("Invalid characters in name!")},
		{"name too long", upd.with("full_name", strings.Repeat("n", 61)), badRequest("Name too long!")},
		{"member changing a user", upd.as(memberAuth), badRequest("Insufficient permission")},
		{"guest changing a role", upd.as(guestAuth, "role", "100"), badRequest("Insufficient permission")},
		{"administrator making an owner", upd.as(adminAuth, "role", "100"), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"administrator demoting the owner", func() request { r := upd.as(adminAuth, "role", "400"); r.path = upd.pathWith("1"); return r }(), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"the only owner demoting themselves", func() request { r := upd.with("role", "400"); r.path = upd.pathWith("1"); return r }(), badRequest("The owner permission cannot be removed from the only organization owner.")},
		{"valid name, bad role (all or nothing)", upd.as(ownerAuth, "full_name", "Half Change", "role", "5"), badRequest("Invalid role")},
	}
	add(upd)

	bots := routeSpec{method: "POST", pattern: "/api/v1/bots", path: "/api/v1/bots", role: fixtures.RoleOwner,
		params: []param{
			{name: "full_name", required: true, oversizeFails: true},
			// A 1 MiB short name makes a 1 MiB email, which the real server's validator refuses.
			{name: "short_name", required: true, oversizeFails: true},
			{name: "bot_type", kind: kInt},
			{name: "service_name"}, {name: "config_data", kind: kJSONDict}, {name: "interface_type", kind: kInt},
		},
		valid: []string{"full_name", "Bad Input Bot", "short_name", "badinput"}}
	bots.extra = []badCase{
		{"bot_type zero", bots.with("bot_type", "0"), badRequest("Invalid bot_type")},
		{"bot_type negative", bots.with("bot_type", "-1"), badRequest("Invalid bot_type")},
		{"bot_type unknown", bots.with("bot_type", "5"), badRequest("Invalid bot_type")},
		{"short name with bad characters", bots.with("short_name", "Bad Name!"), badRequest("Bad name or username")},
		{"empty short name", bots.with("short_name", ""), badRequest("Bad name or username")},
		{"short name in use", bots.with("short_name", "helper"), badRequest("Username already in use")},
		{"blank full name", bots.with("full_name", " "), badRequest("Name too short!")},
		{"bot creating a bot", bots.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
		{"bot, no parameters (checked first)", request{method: "POST", path: bots.path, auth: botAuth}, badRequest("This endpoint does not accept bot requests.")},
		{"guest creating a bot", bots.as(guestAuth), badRequest("Not allowed for guest users")},
		{"payload_url not a URL", bots.as(ownerAuth, "bot_type", "3", "payload_url", `"not a url"`), badRequest("payload_url is not a URL")},
		{"payload_url not JSON", bots.as(ownerAuth, "bot_type", "3", "payload_url", "https://hook.example.test/"), badRequest("payload_url is not valid JSON")},
		{"payload_url not a string", bots.as(ownerAuth, "bot_type", "3", "payload_url", "[]"), badRequest("payload_url is not a string")},
		{"interface unknown", bots.as(ownerAuth, "bot_type", "3", "interface_type", "3"), badRequest("Invalid interface type")},
		{"config value not a string", bots.as(ownerAuth, "bot_type", "4", "service_name", "helloworld", "config_data", `{"k":[]}`), badRequest(`config_data["k"] is not a string`)},
		{"embedded bot unknown", bots.as(ownerAuth, "bot_type", "4", "service_name", "chess"), badRequest("Invalid embedded bot name.")},
	}
	add(bots)

	settings := routeSpec{method: "PATCH", pattern: "/api/v1/settings", path: "/api/v1/settings", role: fixtures.RoleOwner,
		params: []param{{name: "email_address_visibility", kind: kInt}, {name: "enter_sends", kind: kBool}, {name: "color_scheme", kind: kInt},
			{name: "emojiset", kind: kEnum, oversizeFails: true}, {name: "timezone", oversizeFails: true},
			{name: "default_language", oversizeFails: true}, {name: "full_name", oversizeFails: true},
			{name: "email", oversizeFails: true}, {name: "old_password"}, {name: "new_password", oversizeFails: true}},
		valid: []string{"email_address_visibility", "4"}}
	settings.extra = []badCase{
		{"visibility zero", settings.with("email_address_visibility", "0"), badRequest("Invalid email_address_visibility")},
		{"visibility negative", settings.with("email_address_visibility", "-1"), badRequest("Invalid email_address_visibility")},
		{"visibility unknown", settings.with("email_address_visibility", "6"), badRequest("Invalid email_address_visibility")},
		{"color scheme unknown", settings.with("color_scheme", "4"), badRequest("Invalid color_scheme")},
		{"emoji set unknown", settings.with("emojiset", "apple"), badRequest("Invalid emojiset")},
		{"notification sound unknown", settings.with("notification_sound", "gong"), badRequest("Invalid notification sound 'gong'")},
		{"batching period zero", settings.with("email_notifications_batching_period_seconds", "0"), badRequest("Invalid email batching period: 0 seconds")},
		{"batching period over a week", settings.with("email_notifications_batching_period_seconds", "604801"), badRequest("Invalid email batching period: 604801 seconds")},
		{"time zone unknown", settings.with("timezone", "Mars/Olympus"), badRequest("Not a recognized time zone")},
		{"time zone empty", settings.with("timezone", ""), badRequest("Not a recognized time zone")},
		{"language unknown", settings.with("default_language", "xx"), badRequest("Invalid default_language")},
		{"blank full name", settings.with("full_name", "  "), badRequest("Name too short!")},
		{"full name with bad characters", settings.with("full_name", "a@b"), badRequest("Invalid characters in name!")},
		{"full name too long", settings.with("full_name", strings.Repeat("n", 61)), badRequest("Name too long!")},
		{"wrong old password", settings.as(ownerAuth, "old_password", "admin-password", "new_password", "a-new-password"), badRequest("Wrong password!")},
		{"new password without the old", settings.with("new_password", "a-new-password"), badRequest("Wrong password!")},
		{"weak new password", settings.as(ownerAuth, "old_password", "owner-password", "new_password", "abcde"), badRequest("New password is too weak!")},
		{"good password, bad setting", settings.as(ownerAuth, "old_password", "owner-password", "new_password", "a-new-password", "color_scheme", "4"), badRequest("Invalid color_scheme")},
		{"invalid email", settings.with("email", "nowhere"), badRequest("Invalid address.")},
		{"email in use", settings.with("email", memberEmail), badRequest("Already has an account.")},
		{"system bot's email", settings.with("email", "notification-bot@zulip.com"), badRequest("Reserved for system bots.")},
		{"a bot's settings", settings.as(botAuth, "email", "elsewhere@chat.example.test"), badRequest("This endpoint does not accept bot requests.")},
	}
	add(settings)
	// The real server's deprecated aliases take every setting: the same generated cases each.
	for _, alias := range []string{"/api/v1/settings/display", "/api/v1/settings/notifications"} {
		aliased := settings
		aliased.pattern, aliased.path, aliased.extra = alias, alias, nil
		add(aliased)
	}

	getByEmail := routeSpec{method: "GET", pattern: "/api/v1/users/{email:[^/]*(?:@|%40)[^/]*}", path: "/api/v1/users/" + memberEmail,
		role:   fixtures.RoleMember,
		params: []param{{name: "client_gravatar", kind: kBool}, {name: "include_custom_profile_fields", kind: kBool}}}
	getByEmail.extra = []badCase{
		{"unknown email", onPath("/api/v1/users/nobody@chat.example.test", getByEmail.as(memberAuth)), badRequest("No such user")},
	}
	add(getByEmail)

	deactivateSelf := routeSpec{method: "DELETE", pattern: "/api/v1/users/me", path: "/api/v1/users/me", role: fixtures.RoleMember}
	deactivateSelf.extra = []badCase{
		{"the only owner", deactivateSelf.as(ownerAuth), bad(400, "CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only organization owner.")},
	}
	add(deactivateSelf)

	deactivateUser := routeSpec{method: "DELETE", pattern: "/api/v1/users/{user_id:[0-9]+}", path: "/api/v1/users/{id}", id: "4",
		notFound: "No such user", role: fixtures.RoleAdmin,
		params: []param{{name: "deactivation_notification_comment", oversizeFails: true}}}
	onUser := func(id string, r request) request { r.path = "/api/v1/users/" + id; return r }
	deactivateUser.extra = []badCase{
		{"moderator", deactivateUser.as(modAuth), principalAdmin},
		{"member, no parameters (role checked first)", request{method: "DELETE", path: "/api/v1/users/4", auth: memberAuth}, principalAdmin},
		{"administrator deactivating the owner", onUser("1", deactivateUser.as(adminAuth)), ownerPrincipal},
		{"the only owner", onUser("1", deactivateUser.as(ownerAuth)), badRequest("Cannot deactivate the only organization owner")},
		{"a bot", onUser("6", deactivateUser.as(adminAuth)), badRequest("No such user")},
		{"comment too long", deactivateUser.with("deactivation_notification_comment", strings.Repeat("c", 2001)), badRequest("deactivation_notification_comment is too long (limit: 2000 characters)")},
	}
	add(deactivateUser)

	deactivateBot := routeSpec{method: "DELETE", pattern: "/api/v1/bots/{bot_id:[0-9]+}", path: "/api/v1/bots/{id}", id: "6",
		notFound: "No such bot", role: fixtures.RoleAdmin}
	deactivateBot.extra = []badCase{
		{"member who does not own it", deactivateBot.as(memberAuth), badRequest("Insufficient permission")},
		{"moderator who does not own it", deactivateBot.as(modAuth), badRequest("Insufficient permission")},
		{"a human", request{method: "DELETE", path: "/api/v1/bots/4", auth: adminAuth}, badRequest("No such bot")},
	}
	add(deactivateBot)

	reactivate := routeSpec{method: "POST", pattern: "/api/v1/users/{user_id:[0-9]+}/reactivate", path: "/api/v1/users/{id}/reactivate", id: "4",
		notFound: "No such user", role: fixtures.RoleAdmin}
	reactivate.extra = []badCase{
		{"as a moderator", reactivate.as(modAuth), principalAdmin},
		{"an owner, as an administrator", request{method: "POST", path: "/api/v1/users/1/reactivate", auth: adminAuth}, badRequest("Insufficient permission")},
	}
	add(reactivate)
}
