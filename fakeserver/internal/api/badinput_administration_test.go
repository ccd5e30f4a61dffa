package api_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// API keys and bots, invitations, data exports, client devices and push tests, calls.

// administrationSetUp gives the member an email invitation (1), the administrator an invitation
// link (1) and the organization an export (1), so that a wrongful change to any shows.
func administrationSetUp(t testing.TB, base string) {
	t.Helper()
	requireSuccess(t, "setup invitation", post(t, base, memberAuth, "/api/v1/invites", "invitee_emails", "invited@chat.example.test", "stream_ids", "[1]"))
	requireSuccess(t, "setup invitation link", post(t, base, adminAuth, "/api/v1/invites/multiuse", "stream_ids", "[1]"))
	requireSuccess(t, "setup export", post(t, base, adminAuth, "/api/v1/export/realm"))
	registerPushToken(t, base, memberAuth)
	requireSuccess(t, "setup moderation channel", patch(t, base, ownerAuth, "/api/v1/realm", "moderation_request_channel_id", secretChannel))
}

// registerPushToken gives the user a new client device with an encrypted push registration
// (the push service must be configured) and returns the device's ID.
func registerPushToken(t testing.TB, base, auth string) string {
	t.Helper()
	id := fmt.Sprint(requireSuccess(t, "device", post(t, base, auth, "/api/v1/register_client_device"))["device_id"])
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	key := append([]byte{0x31}, bytes.Repeat([]byte{7}, 32)...)
	requireSuccess(t, "push registration", post(t, base, auth, "/api/v1/mobile_push/register", "device_id", id,
		"push_key", b64(key), "push_key_id", "7", "token_kind", "fcm", "token_id", b64(bytes.Repeat([]byte{1}, 8)),
		"bouncer_public_key", b64(bytes.Repeat([]byte{2}, 32)), "encrypted_push_registration", b64(bytes.Repeat([]byte{3}, 96))))
	return id
}

// administrationStateOf adds the invitations, the exports and the bots (names, keys, owners).
func administrationStateOf(t testing.TB, base string, state map[string]any) {
	t.Helper()
	recordField(state, "invites", get(t, base, ownerAuth, "/api/v1/invites", ""), "invites")
	recordField(state, "exports", get(t, base, ownerAuth, "/api/v1/export/realm", ""), "exports")
	recordField(state, "bots", post(t, base, ownerAuth, "/api/v1/register", "fetch_event_types", `["realm_bot"]`), "realm_bots")
}

// inviteExtraCases are the refusals of an invitation's groups and Welcome Bot text, for a
// requester allowed the rest of the request: groups they cannot add members to (a system
// group's members follow roles), a text longer than 8000 characters.
func inviteExtraCases(rs routeSpec, auth string) []badCase {
	return []badCase{
		{"an unknown group (all or nothing)", rs.as(auth, "group_ids", "[999]"), badRequest("Invalid user group")},
		{"a system group", rs.as(auth, "group_ids", "[6]"), badRequest("Insufficient permission")},
		{"a Welcome Bot text too long", rs.as(adminAuth, "welcome_message_custom_text", strings.Repeat("w", realm.MaxWelcomeTextLength+1)),
			badRequest("welcome_message_custom_text is too long (limit: 8000 characters)")},
	}
}

// expiryCases are the malformed values of invite_expires_in_minutes, a JSON integer or null
// (never expires), which the table's integer cases would send as bad.
func expiryCases(rs routeSpec) []badCase {
	const name = "invite_expires_in_minutes"
	return []badCase{
		{"expiry a string", rs.with(name, `"soon"`), badRequest(name + " is not an integer")},
		{"expiry a float", rs.with(name, "1.5"), badRequest(name + " is not an integer")},
		{"expiry not JSON", rs.with(name, "soon"), want{status: 400}},
		{"expiry overflow", rs.with(name, huge), badRequest(name + " is too large")},
	}
}

// routeCasesAdministration adds the bad-input cases of this block's routes.
func routeCasesAdministration(add func(routeSpec)) {
	onPath := func(path string, r request) request { r.path = path; return r }
	notForBots := badRequest("This endpoint does not accept bot requests.")
	notForGuests := badRequest("Not allowed for guest users")

	regen := routeSpec{method: "POST", pattern: "/api/v1/users/me/api_key/regenerate", path: "/api/v1/users/me/api_key/regenerate", role: fixtures.RoleMember}
	regen.extra = []badCase{{"a bot", regen.as(botAuth), notForBots}}
	add(regen)

	// The bot's routes: the owner (1) and administrators manage the bot (6).
	for _, method := range []string{"GET", "POST"} {
		rs := routeSpec{method: method, pattern: "/api/v1/bots/{bot_id:[0-9]+}/api_key", path: "/api/v1/bots/{id}/api_key", id: "6",
			notFound: "No such bot", role: fixtures.RoleOwner}
		if method == "POST" {
			rs.pattern, rs.path = rs.pattern+"/regenerate", rs.path+"/regenerate"
		}
		rs.extra = []badCase{
			{"a member who does not own it", rs.as(memberAuth), badRequest("Insufficient permission")},
			{"a human's ID", onPath(rs.pathWith("4"), rs.as(ownerAuth)), badRequest("No such bot")},
			{"a guest", rs.as(guestAuth), notForGuests},
			{"the bot itself", rs.as(botAuth), notForBots},
		}
		add(rs)
	}
	bot := routeSpec{method: "PATCH", pattern: "/api/v1/bots/{bot_id:[0-9]+}", path: "/api/v1/bots/{id}", id: "6", notFound: "No such bot",
		role: fixtures.RoleOwner,
		params: []param{{name: "full_name", oversizeFails: true}, {name: "role", kind: kInt}, {name: "bot_owner_id", kind: kInt},
			{name: "default_sending_stream", oversizeFails: true}, {name: "default_events_register_stream", oversizeFails: true},
			{name: "default_all_public_streams", kind: kBool}, {name: "service_interface", kind: kInt}, {name: "config_data", kind: kJSONDict}},
		valid: []string{"full_name", "Renamed Bot"}}
	const hook = `"https://hook.example.test/bot"`
	bot.extra = []badCase{
		{"a member who does not own it", bot.as(memberAuth), badRequest("Insufficient permission")},
		{"an empty name", bot.with("full_name", " "), badRequest("Name too short!")},
		{"a name with a quote", bot.with("full_name", `Bot "x"`), badRequest("Invalid characters in name!")},
		{"an unknown owner (all or nothing)", bot.as(ownerAuth, "bot_owner_id", "99"), badRequest("Failed to change owner, no such user")},
		{"a bot as owner", bot.as(ownerAuth, "bot_owner_id", "6"), badRequest("Failed to change owner, bots can't own other bots")},
		{"an unknown role", bot.as(ownerAuth, "role", "150"), badRequest("Invalid role")},
		{"the owner role, by an administrator", bot.as(adminAuth, "role", "100"), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"a guest", bot.as(guestAuth), notForGuests},
		{"an unknown sending channel (all or nothing)", bot.as(ownerAuth, "default_sending_stream", "nowhere"), badRequest("Invalid channel name 'nowhere'")},
		{"an unknown register channel", bot.as(ownerAuth, "default_events_register_stream", "nowhere"), badRequest("Invalid channel name 'nowhere'")},
		{"a payload URL not JSON", bot.as(ownerAuth, "service_payload_url", "https://hook.example.test/bot"), want{status: 400}},
		{"a payload URL not a string", bot.as(ownerAuth, "service_payload_url", "5"), badRequest("service_payload_url is not a string")},
		{"a payload URL that is none", bot.as(ownerAuth, "service_payload_url", `"hook"`), badRequest("service_payload_url is not a URL")},
		{"an unknown service interface", bot.as(ownerAuth, "service_payload_url", hook, "service_interface", "3"), badRequest("Invalid interface type")},
		{"a payload URL for a bot without a service", bot.as(ownerAuth, "service_payload_url", hook), badRequest("This bot has no outgoing webhook service")},
		{"a configuration value not a string", bot.as(ownerAuth, "config_data", `{"key":1}`), badRequest(`config_data["key"] is not a string`)},
	}
	add(bot)

	add(routeSpec{method: "GET", pattern: "/api/v1/invites", path: "/api/v1/invites", role: fixtures.RoleMember,
		extra: []badCase{{"a guest", request{method: "GET", path: "/api/v1/invites", auth: guestAuth}, notForGuests},
			{"a bot", request{method: "GET", path: "/api/v1/invites", auth: botAuth}, notForBots}}})
	invite := routeSpec{method: "POST", pattern: "/api/v1/invites", path: "/api/v1/invites", role: fixtures.RoleMember,
		params: []param{
			{name: "invitee_emails", required: true, oversizeFails: true},
			{name: "invite_as", kind: kInt},
			{name: "stream_ids", kind: kJSONList, required: true},
			{name: "include_realm_default_subscriptions", kind: kBool},
			{name: "group_ids", kind: kJSONList},
			{name: "welcome_message_custom_text", oversizeFails: true},
			{name: "notify_referrer_on_join", kind: kBool},
		},
		valid: []string{"invitee_emails", "newcomer@chat.example.test", "stream_ids", "[1]"}}
	invite.extra = []badCase{
		{"a guest", invite.as(guestAuth), notForGuests},
		{"a bot", invite.as(botAuth), notForBots},
		{"no address", invite.with("invitee_emails", " "), badRequest("You must specify at least one email address.")},
		{"an invalid address (all or nothing)", invite.with("invitee_emails", "fine@chat.example.test, not-an-address"),
			bad(400, "INVITATION_FAILED", "Some emails did not validate, so we didn't send any invitations.")},
		{"only addresses with accounts", invite.with("invitee_emails", "owner@chat.example.test"), bad(400, "INVITATION_FAILED", "We weren't able to invite anyone.")},
		{"an unknown channel", invite.with("stream_ids", "[1,999]"), badRequest("Invalid channel ID 999. No invites were sent.")},
		{"an unknown role", invite.with("invite_as", "150"), badRequest("Invalid invite_as")},
		{"an owner, by a member", invite.with("invite_as", "100"), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"an administrator, by a member", invite.with("invite_as", "200"), badRequest("Must be an organization administrator")},
		{"a Welcome Bot text, by a member", invite.with("welcome_message_custom_text", "Hi"), badRequest("Must be an organization administrator")},
	}
	invite.extra = append(invite.extra, expiryCases(invite)...)
	invite.extra = append(invite.extra, inviteExtraCases(invite, memberAuth)...)
	add(invite)
	link := routeSpec{method: "POST", pattern: "/api/v1/invites/multiuse", path: "/api/v1/invites/multiuse", role: fixtures.RoleAdmin,
		params: []param{{name: "invite_as", kind: kInt}, {name: "stream_ids", kind: kJSONList},
			{name: "include_realm_default_subscriptions", kind: kBool}, {name: "group_ids", kind: kJSONList},
			{name: "welcome_message_custom_text", oversizeFails: true}},
		valid: []string{"stream_ids", "[1]"}}
	link.extra = []badCase{
		{"a member", link.as(memberAuth), badRequest("Insufficient permission")},
		{"an owner, by an administrator", link.with("invite_as", "100"), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"an unknown channel", link.with("stream_ids", "[999]"), badRequest("Invalid channel ID 999. No invites were sent.")},
	}
	link.extra = append(link.extra, expiryCases(link)...)
	link.extra = append(link.extra, inviteExtraCases(link, adminAuth)...)
	add(link)
	for _, rs := range []routeSpec{
		{method: "POST", pattern: "/api/v1/invites/{invite_id:[0-9]+}/resend", path: "/api/v1/invites/{id}/resend", id: "1", role: fixtures.RoleMember},
		{method: "DELETE", pattern: "/api/v1/invites/{invite_id:[0-9]+}", path: "/api/v1/invites/{id}", id: "1", role: fixtures.RoleMember},
		{method: "DELETE", pattern: "/api/v1/invites/multiuse/{invite_id:[0-9]+}", path: "/api/v1/invites/multiuse/{id}", id: "1", role: fixtures.RoleAdmin},
	} {
		rs.notFound = "No such invitation"
		rs.extra = []badCase{
			{"a moderator's, of another's", rs.as(modAuth), badRequest("Must be an organization administrator")},
			{"a guest", rs.as(guestAuth), notForGuests},
		}
		add(rs)
	}

	member := func(rs routeSpec) badCase { return badCase{"a member", rs.as(memberAuth), principalAdmin} }
	exports := routeSpec{method: "GET", pattern: "/api/v1/export/realm", path: "/api/v1/export/realm", role: fixtures.RoleAdmin}
	exports.extra = []badCase{member(exports)}
	add(exports)
	export := routeSpec{method: "POST", pattern: "/api/v1/export/realm", path: "/api/v1/export/realm", role: fixtures.RoleAdmin,
		params: []param{{name: "export_type", kind: kEnum}}, valid: []string{"export_type", "public"}}
	export.extra = []badCase{member(export),
		{"without consent, where owners lack full access", export.with("export_type", "full_without_consent"),
			badRequest("Full exports without consent need an organization whose owners have full content access.")}}
	add(export)
	consents := routeSpec{method: "GET", pattern: "/api/v1/export/realm/consents", path: "/api/v1/export/realm/consents", role: fixtures.RoleAdmin}
	consents.extra = []badCase{member(consents)}
	add(consents)

	remove := routeSpec{method: "POST", pattern: "/api/v1/remove_client_device", path: "/api/v1/remove_client_device", role: fixtures.RoleMember,
		params: []param{{name: "device_id", kind: kInt, required: true}}, valid: []string{"device_id", "1"}}
	remove.extra = []badCase{
		{"an unknown device", remove.with("device_id", "99"), badRequest("Invalid `device_id`")},
		{"another user's device", remove.as(ownerAuth), badRequest("Invalid `device_id`")},
	}
	add(remove)
	test := routeSpec{method: "POST", pattern: "/api/v1/mobile_push/test_notification", path: "/api/v1/mobile_push/test_notification", role: fixtures.RoleMember,
		params: []param{{name: "token"}}, valid: []string{"token", integFCMToken}}
	test.extra = []badCase{
		{"an unknown token", test.with("token", "nonesuch"), bad(400, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized")},
		{"a bot", test.as(botAuth), notForBots},
	}
	add(test)
	e2ee := routeSpec{method: "POST", pattern: "/api/v1/mobile_push/e2ee/test_notification", path: "/api/v1/mobile_push/e2ee/test_notification",
		role: fixtures.RoleMember, params: []param{{name: "device_id", kind: kInt}}, valid: []string{"device_id", "2"}}
	e2ee.extra = []badCase{
		{"a device without a push registration", e2ee.with("device_id", "1"), bad(400, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device")},
		{"a user without registrations", request{method: "POST", path: e2ee.path, auth: ownerAuth}, bad(400, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device")},
		{"a bot", e2ee.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
	}
	add(e2ee)
	bbb := routeSpec{method: "GET", pattern: "/api/v1/calls/bigbluebutton/create", path: "/api/v1/calls/bigbluebutton/create", role: fixtures.RoleMember,
		params: []param{{name: "meeting_name", required: true}, {name: "voice_only", kind: kBool}}, valid: []string{"meeting_name", "Standup"}}
	add(bbb)
	add(routeSpec{method: "GET", pattern: "/user_avatars/exports/1/*", path: "/user_avatars/exports/1/notatoken/chatconform-export-1.json", raw: true,
		unknowable: "an export's URL holds a random token"})
}
