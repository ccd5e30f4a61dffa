package api_test

// API keys and bots, invitations, data exports, client devices, push tests, calls and the
// development login: answers, events, and what each changes (every exchange checked against
// the fake's OpenAPI description).

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// opsOf lists the op of each event.
func opsOf(evs []map[string]any) string {
	var ops []string
	for _, e := range evs {
		ops = append(ops, fmt.Sprint(e["op"]))
	}
	return strings.Join(ops, ",")
}

func TestAPIKeyRegeneration(t *testing.T) {
	base := newCheckedServer(t)
	key := requireSuccess(t, "regenerate", post(t, base, memberAuth, "/api/v1/users/me/api_key/regenerate"))["api_key"].(string)
	if res := get(t, base, memberAuth, "/api/v1/users/me", ""); res.status != http.StatusUnauthorized {
		t.Errorf("the old key still works: %s", res)
	}
	requireSuccess(t, "the new key", get(t, base, basicHeader("member@chat.example.test", key), "/api/v1/users/me", ""))

	queue := evRegister(t, base, ownerAuth, "event_types", `["realm_bot"]`)
	botKey := requireSuccess(t, "regenerate the bot's", post(t, base, ownerAuth, "/api/v1/bots/6/api_key/regenerate"))["api_key"].(string)
	if got := requireSuccess(t, "read the bot's", get(t, base, ownerAuth, "/api/v1/bots/6/api_key", ""))["api_key"]; got != botKey {
		t.Errorf("GET /bots/6/api_key %v, want the regenerated %s", got, botKey)
	}
	if res := get(t, base, botAuth, "/api/v1/users/me", ""); res.status != http.StatusUnauthorized {
		t.Errorf("the bot's old key still works: %s", res)
	}
	requireSuccess(t, "the bot's new key", get(t, base, basicHeader("helper-bot@chat.example.test", botKey), "/api/v1/users/me", ""))
	evs := eventsOfType(evPoll(t, base, ownerAuth, queue, -1, true), "realm_bot")
	if len(evs) != 1 || canonical(evs[0]["bot"]) != canonical(map[string]any{"user_id": 6, "api_key": botKey}) {
		t.Errorf("realm_bot events %v", evs)
	}
}

func TestUpdateBot(t *testing.T) {
	base := newCheckedServer(t)
	owner := evRegister(t, base, ownerAuth, "event_types", `["realm_bot","realm_user"]`)
	member := evRegister(t, base, memberAuth, "event_types", `["realm_bot","realm_user"]`)
	got := requireSuccess(t, "rename and hand to the member", msgPatch(t, base, ownerAuth, "/api/v1/bots/6", "full_name", " Renamed Bot ", "bot_owner_id", "4"))
	if got["full_name"] != "Renamed Bot" || got["bot_owner"] != "member@chat.example.test" || got["service_interface"] != float64(1) {
		t.Errorf("PATCH /bots/6: %v", got)
	}
	// The owner, an organization owner, manages every bot: updates; the member gains the bot.
	ownerEvs := eventsOfType(evPoll(t, base, ownerAuth, owner, -1, true), "realm_bot")
	if opsOf(ownerEvs) != "update,update" || ownerEvs[1]["bot"].(map[string]any)["owner_id"] != float64(4) {
		t.Errorf("the owner's realm_bot events %v", ownerEvs)
	}
	memberEvs := evPoll(t, base, memberAuth, member, -1, true)
	bots, users := eventsOfType(memberEvs, "realm_bot"), eventsOfType(memberEvs, "realm_user")
	if opsOf(bots) != "add" || bots[0]["bot"].(map[string]any)["full_name"] != "Renamed Bot" {
		t.Errorf("the member's realm_bot events %v", bots)
	}
	if len(users) != 2 || canonical(users[1]["person"]) != `{"bot_owner_id":4,"user_id":6}` {
		t.Errorf("the member's realm_user events %v", users)
	}
	// The member now manages the bot; handing it back tells them it is gone.
	requireSuccess(t, "the member's bot key", get(t, base, memberAuth, "/api/v1/bots/6/api_key", ""))
	requireSuccess(t, "hand back", msgPatch(t, base, memberAuth, "/api/v1/bots/6", "bot_owner_id", "1"))
	if evs := eventsOfType(evPoll(t, base, memberAuth, member, len(memberEvs)-1, true), "realm_bot"); opsOf(evs) != "delete" {
		t.Errorf("the former owner's realm_bot events %v", evs)
	}
	if res := get(t, base, memberAuth, "/api/v1/bots/6/api_key", ""); res.env["msg"] != "Insufficient permission" {
		t.Errorf("the former owner still manages the bot: %s", res)
	}
}

// invites lists GET /invites as auth.
func invites(t *testing.T, base, auth string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, v := range requireSuccess(t, "GET /invites", get(t, base, auth, "/api/v1/invites", ""))["invites"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

func TestInvitations(t *testing.T) {
	base := newCheckedServer(t)
	admin := evRegister(t, base, adminAuth, "event_types", `["invites_changed"]`)
	res := post(t, base, memberAuth, "/api/v1/invites", "invitee_emails", "Ann <ann@chat.example.test>, owner@chat.example.test\nbob@chat.example.test",
		"stream_ids", "[1]", "invite_expires_in_minutes", "60")
	// An address with an account is skipped, the others are invited, and the answer says so.
	if res.env["code"] != "INVITATION_FAILED" || res.env["sent_invitations"] != true || canonical(res.env["errors"]) != `[["owner@chat.example.test","Already has an account.",false]]` {
		t.Errorf("a batch with an existing account: %s", res)
	}
	requireSuccess(t, "a link", post(t, base, adminAuth, "/api/v1/invites/multiuse", "invite_expires_in_minutes", "null", "invite_as", "600"))
	start := defaultFixture.Realm.StartTime
	mine := invites(t, base, memberAuth)
	if len(mine) != 2 || mine[0]["email"] != "ann@chat.example.test" || mine[1]["email"] != "bob@chat.example.test" ||
		mine[0]["expiry_date"] != float64(start+3600) || mine[0]["invited"] != float64(start) || mine[0]["notify_referrer_on_join"] != true {
		t.Errorf("the member's invitations %v", mine)
	}
	all := invites(t, base, adminAuth)
	if len(all) != 3 || all[2]["is_multiuse"] != true || all[2]["expiry_date"] != nil || all[2]["invited_as"] != float64(600) ||
		!strings.HasPrefix(fmt.Sprint(all[2]["link_url"]), "https://chat.example.test/join/") {
		t.Errorf("the administrator's invitations %v", all)
	}

	requireSuccess(t, "resend", post(t, base, memberAuth, "/api/v1/invites/1/resend"))
	requireSuccess(t, "revoke", do(t, base, request{method: http.MethodDelete, path: "/api/v1/invites/2", auth: adminAuth}))
	requireSuccess(t, "revoke the link", do(t, base, request{method: http.MethodDelete, path: "/api/v1/invites/multiuse/1", auth: adminAuth}))
	if res := do(t, base, request{method: http.MethodDelete, path: "/api/v1/invites/multiuse/1", auth: adminAuth}); res.env["msg"] != "Invitation has already been revoked" {
		t.Errorf("revoking a link twice: %s", res)
	}
	if res := do(t, base, request{method: http.MethodDelete, path: "/api/v1/invites/2", auth: adminAuth}); res.env["msg"] != "No such invitation" {
		t.Errorf("revoking an invitation twice: %s", res)
	}
	if got := invites(t, base, adminAuth); len(got) != 1 || got[0]["id"] != float64(1) {
		t.Errorf("after revoking: %v", got)
	}
	// invite, link, resend, revoke, revoke the link
	if evs := eventsOfType(evPoll(t, base, adminAuth, admin, -1, true), "invites_changed"); len(evs) != 5 {
		t.Errorf("%d invites_changed events, want 5: %v", len(evs), evs)
	}
	// An hour later the invitation has expired.
	requireSuccess(t, "clock", post(t, base, "", "/_fake/clock", "advance", "3600"))
	if got := invites(t, base, adminAuth); len(got) != 0 {
		t.Errorf("an expired invitation listed: %v", got)
	}
}

func TestRealmExport(t *testing.T) {
	base := newCheckedServer(t)
	requireSuccess(t, "a private channel", post(t, base, ownerAuth, "/api/v1/users/me/subscriptions",
		"subscriptions", `[{"name":"secrets"}]`, "invite_only", "true", "principals", "[1,4]"))
	requireSuccess(t, "a private message", post(t, base, ownerAuth, "/api/v1/messages", "type", "channel", "to", "secrets", "topic", "t", "content", "hidden plans"))
	requireSuccess(t, "a public message", post(t, base, ownerAuth, "/api/v1/messages", "type", "channel", "to", "general", "topic", "t", "content", "open plans"))
	requireSuccess(t, "a direct message", post(t, base, ownerAuth, "/api/v1/messages", "type", "direct", "to", "[4]", "content", "direct plans"))
	queue := evRegister(t, base, adminAuth, "event_types", `["realm_export","realm_export_consent"]`)

	exportFile := func(typ string) string {
		t.Helper()
		id := requireSuccess(t, "export", post(t, base, adminAuth, "/api/v1/export/realm", "export_type", typ))["id"]
		var found map[string]any
		for _, e := range requireSuccess(t, "list", get(t, base, adminAuth, "/api/v1/export/realm", ""))["exports"].([]any) {
			if e.(map[string]any)["id"] == id {
				found = e.(map[string]any)
			}
		}
		if found == nil || found["pending"] != false || found["acting_user_id"] != float64(2) || fmt.Sprint(found["export_type"]) != typ {
			t.Fatalf("export %v in the list: %v", id, found)
		}
		u, err := url.Parse(found["export_url"].(string))
		if err != nil || u.Host != "chat.example.test" {
			t.Fatalf("export_url %v", found["export_url"])
		}
		res := do(t, base, request{method: http.MethodGet, path: u.Path})
		if res.status != http.StatusOK || !json.Valid(res.body) {
			t.Fatalf("the export file: %s", res)
		}
		return string(res.body)
	}
	public := exportFile("public")
	if !strings.Contains(public, "open plans") || strings.Contains(public, "hidden plans") || strings.Contains(public, "direct plans") ||
		!strings.Contains(public, `"email": "member@chat.example.test"`) || strings.Contains(public, "MemberKey") {
		t.Errorf("the public export: %s", cut(public, 3000))
	}
	// With the member's consent, a full export holds what the member received.
	requireSuccess(t, "consent", msgPatch(t, base, memberAuth, "/api/v1/settings", "allow_private_data_export", "true"))
	consents := requireSuccess(t, "consents", get(t, base, adminAuth, "/api/v1/export/realm/consents", ""))["export_consents"]
	if !strings.Contains(canonical(consents), `{"consented":true,"email_address_visibility":1,"user_id":4}`) || strings.Contains(canonical(consents), `"user_id":6`) {
		t.Errorf("export_consents %s", canonical(consents))
	}
	full := exportFile("full_with_consent")
	if !strings.Contains(full, "hidden plans") || !strings.Contains(full, "direct plans") {
		t.Errorf("the export with consent: %s", cut(full, 3000))
	}
	evs := evPoll(t, base, adminAuth, queue, -1, true)
	if n := len(eventsOfType(evs, "realm_export")); n != 4 {
		t.Errorf("%d realm_export events, want a pending and a finished one per export: %v", n, evs)
	}
	if c := eventsOfType(evs, "realm_export_consent"); len(c) != 1 || c[0]["user_id"] != float64(4) || c[0]["consented"] != true {
		t.Errorf("realm_export_consent events %v", c)
	}
	// Five exports a week.
	for range 3 {
		requireSuccess(t, "export", post(t, base, adminAuth, "/api/v1/export/realm"))
	}
	if res := post(t, base, adminAuth, "/api/v1/export/realm"); res.env["msg"] != "Exceeded rate limit." {
		t.Errorf("a sixth export in a week: %s", res)
	}
	requireSuccess(t, "clock", post(t, base, "", "/_fake/clock", "advance", fmt.Sprint(7*24*3600)))
	requireSuccess(t, "a week later", post(t, base, adminAuth, "/api/v1/export/realm"))
}

func TestClientDeviceRemovalAndTestNotification(t *testing.T) {
	base := newCheckedServer(t, fakeserver.WithConfig(fakeserver.Config{PushConfigured: true}))
	queue := evRegister(t, base, memberAuth, "event_types", `["device"]`)
	id := fmt.Sprint(requireSuccess(t, "device", post(t, base, memberAuth, "/api/v1/register_client_device"))["device_id"])
	requireSuccess(t, "remove", post(t, base, memberAuth, "/api/v1/remove_client_device", "device_id", id))
	if got := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["device"]`))["devices"]; canonical(got) != "{}" {
		t.Errorf("devices after removal %v", got)
	}
	if evs := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "device"); opsOf(evs) != "remove" || fmt.Sprint(evs[0]["device_id"]) != id {
		t.Errorf("device events %v", evs)
	}

	// Legacy registrations: to all of none is no error, to an unknown token is.
	requireSuccess(t, "to no registration", post(t, base, memberAuth, "/api/v1/mobile_push/test_notification"))
	requireSuccess(t, "FCM token", post(t, base, memberAuth, "/api/v1/users/me/android_gcm_reg_id", "token", "a-token"))
	requireSuccess(t, "to all", post(t, base, memberAuth, "/api/v1/mobile_push/test_notification"))
	requireSuccess(t, "to one", post(t, base, memberAuth, "/api/v1/mobile_push/test_notification", "token", "a-token"))
	if res := post(t, base, ownerAuth, "/api/v1/mobile_push/test_notification", "token", "a-token"); res.env["code"] != "INVALID_PUSH_DEVICE_TOKEN" {
		t.Errorf("another user's token: %s", res)
	}

	// Encrypted registrations: a device without a push token does not count.
	if res := post(t, base, memberAuth, "/api/v1/mobile_push/e2ee/test_notification"); res.env["code"] != "NO_ACTIVE_PUSH_DEVICE" {
		t.Errorf("an encrypted test notification without registrations: %s", res)
	}
	registered := registerPushToken(t, base, memberAuth)
	requireSuccess(t, "encrypted, to all", post(t, base, memberAuth, "/api/v1/mobile_push/e2ee/test_notification"))
	requireSuccess(t, "encrypted, to one", post(t, base, memberAuth, "/api/v1/mobile_push/e2ee/test_notification", "device_id", registered))
	if res := post(t, base, ownerAuth, "/api/v1/mobile_push/e2ee/test_notification", "device_id", registered); res.env["code"] != "NO_ACTIVE_PUSH_DEVICE" {
		t.Errorf("another user's device: %s", res)
	}
}

// Below the registration's redesign, an encrypted test notification names a push account.
func TestE2EETestNotificationByPushAccount(t *testing.T) {
	base := newServerAt(t, realm.LevelPushRedesign-1).URL
	requireSuccess(t, "configure", do(t, base, request{method: http.MethodPatch, path: "/_fake/config", body: formBody("push_configured", "true"), contentType: formType}))
	test := func(kv ...string) response {
		return post(t, base, memberAuth, "/api/v1/mobile_push/e2ee/test_notification", kv...)
	}
	if res := test(); res.env["code"] != "NO_ACTIVE_PUSH_DEVICE" {
		t.Errorf("without a push account: %s", res)
	}
	b64 := func(n int, b byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, n)) }
	requireSuccess(t, "push account", post(t, base, memberAuth, "/api/v1/mobile_push/register", "push_account_id", "42",
		"push_key", base64.StdEncoding.EncodeToString(append([]byte{0x31}, bytes.Repeat([]byte{7}, 32)...)), "push_key_id", "7",
		"token_kind", "fcm", "token_id", b64(8, 1), "bouncer_public_key", b64(32, 2), "encrypted_push_registration", b64(96, 3)))
	requireSuccess(t, "to the account", test("push_account_id", "42"))
	if res := test("push_account_id", "43"); res.env["code"] != "NO_ACTIVE_PUSH_DEVICE" {
		t.Errorf("another account: %s", res)
	}
	if res := test("device_id", "42"); fmt.Sprint(res.env["ignored_parameters_unsupported"]) != "[device_id]" {
		t.Errorf("device_id before the redesign: %s", res)
	}
}

func TestBigBlueButtonCall(t *testing.T) {
	for _, configured := range []bool{false, true} {
		base := newCheckedServer(t, fakeserver.WithConfig(fakeserver.Config{VideoCallsConfigured: configured}))
		res := get(t, base, memberAuth, "/api/v1/calls/bigbluebutton/create", "meeting_name=Standup&voice_only=true")
		if !configured {
			if res.env["msg"] != "BigBlueButton is not configured." {
				t.Errorf("without credentials: %s", res)
			}
			continue
		}
		u := fmt.Sprint(requireSuccess(t, "create", res)["url"])
		if !strings.HasPrefix(u, "/calls/bigbluebutton/join?bigbluebutton=") || u == fmt.Sprint(requireSuccess(t, "another", get(t, base, memberAuth, "/api/v1/calls/bigbluebutton/create", "meeting_name=Standup"))["url"]) {
			t.Errorf("join URL %s (each meeting its own)", u)
		}
	}
}

func TestDevFetchAPIKey(t *testing.T) {
	fetch := func(username string) request {
		return request{method: http.MethodPost, path: "/api/v1/dev_fetch_api_key", body: formBody("username", username), contentType: formType}
	}
	production := newCheckedServer(t)
	checkBad(t, badCase{want: badRequest("DevAuthBackend not enabled.")}, do(t, production, fetch("member@chat.example.test")))

	f := fixtures.Default()
	f.Realm.DevelopmentMode = true
	base := newCheckedServer(t, fakeserver.WithFixture(f))
	for _, c := range []badCase{
		{"no username", request{method: http.MethodPost, path: "/api/v1/dev_fetch_api_key"}, missing("username")},
		{"not an email", fetch("member"), badRequest("Enter a valid email address.")},
		{"no such user", fetch("nobody@chat.example.test"), bad(401, "AUTHENTICATION_FAILED", "")},
		{"a bot", fetch("helper-bot@chat.example.test"), bad(401, "AUTHENTICATION_FAILED", "")},
	} {
		t.Run(c.name, func(t *testing.T) { checkBad(t, c, do(t, base, c.req)) })
	}
	got := requireSuccess(t, "fetch", do(t, base, fetch("Member@chat.example.test")))
	m, _ := defaultFixture.UserByRole(fixtures.RoleMember)
	if got["api_key"] != m.APIKey || got["user_id"] != float64(4) || got["email"] != "member@chat.example.test" {
		t.Errorf("dev_fetch_api_key %v", got)
	}
}

// Integer export types from 304 to 448; names from 449.
func TestExportTypeByLevel(t *testing.T) {
	for _, c := range []struct {
		level      int
		typ, shown string
	}{
		{realm.LevelExportType - 1, "2", "<nil>"}, // an unknown parameter: a public export
		{realm.LevelExportType, "2", "2"},
		{realm.LevelExportTypeNames - 1, "2", "2"},
		{realm.LevelExportTypeNames, "full_with_consent", "full_with_consent"},
	} {
		base := newServerAt(t, c.level).URL
		requireSuccess(t, "export", post(t, base, adminAuth, "/api/v1/export/realm", "export_type", c.typ))
		e := requireSuccess(t, "list", get(t, base, adminAuth, "/api/v1/export/realm", ""))["exports"].([]any)[0].(map[string]any)
		if got := fmt.Sprint(e["export_type"]); got != c.shown {
			t.Errorf("at level %d: export_type %s, want %s", c.level, got, c.shown)
		}
	}
	if res := post(t, newServerAt(t, realm.LevelExportTypeNames-1).URL, adminAuth, "/api/v1/export/realm", "export_type", "3"); res.env["msg"] != "Invalid export_type" {
		t.Errorf("an unknown integer type: %s", res)
	}
}

// Fields gated at their feature levels: notify_referrer_on_join (267), export_type (304),
// allow_private_data_export (293), the consents' email_address_visibility (430).
func TestRoutesBFieldsByLevel(t *testing.T) {
	for _, c := range []struct {
		boundary int
		shown    func(t *testing.T, base string) bool
	}{
		{realm.LevelNotifyReferrer, func(t *testing.T, base string) bool {
			requireSuccess(t, "invite", post(t, base, memberAuth, "/api/v1/invites", "invitee_emails", "x@chat.example.test", "stream_ids", "[]"))
			_, ok := invites(t, base, memberAuth)[0]["notify_referrer_on_join"]
			return ok
		}},
		{realm.LevelExportType, func(t *testing.T, base string) bool {
			requireSuccess(t, "export", post(t, base, adminAuth, "/api/v1/export/realm"))
			_, ok := requireSuccess(t, "list", get(t, base, adminAuth, "/api/v1/export/realm", ""))["exports"].([]any)[0].(map[string]any)["export_type"]
			return ok
		}},
		{realm.LevelPrivateDataExport, func(t *testing.T, base string) bool {
			_, ok := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["user_settings"]`))["user_settings"].(map[string]any)["allow_private_data_export"]
			return ok
		}},
		{realm.LevelConsentEmailVisibility, func(t *testing.T, base string) bool {
			consents := requireSuccess(t, "consents", get(t, base, adminAuth, "/api/v1/export/realm/consents", ""))["export_consents"]
			return strings.Contains(canonical(consents), "email_address_visibility")
		}},
	} {
		for _, level := range []int{c.boundary - 1, c.boundary} {
			if got := c.shown(t, newServerAt(t, level).URL); got != (level == c.boundary) {
				t.Errorf("at level %d (boundary %d): shown %v", level, c.boundary, got)
			}
		}
	}
}

// The realm's permission group settings in register: each from the level the real server's
// changelog gives, with its default for a new organization.
func TestRealmGroupSettingsByLevel(t *testing.T) {
	for _, c := range []struct {
		setting, group string
		since          int
	}{
		{"create_multiuse_invite_group", "role:administrators", 209},
		{"can_access_all_users_group", "role:everyone", 225},
		{"can_create_public_channel_group", "role:members", 264},
		{"can_create_private_channel_group", "role:members", 266},
		{"direct_message_initiator_group", "role:everyone", 270},
		{"direct_message_permission_group", "role:everyone", 270},
		{"can_create_web_public_channel_group", "role:owners", 280},
		{"can_delete_any_message_group", "role:administrators", 281},
		{"can_delete_own_message_group", "role:everyone", 291},
		{"can_create_groups", "role:members", 299},
		{"can_manage_all_groups", "role:owners", 299},
		{"can_add_custom_emoji_group", "role:members", 307},
		{"can_invite_users_group", "role:members", 321},
		{"can_add_subscribers_group", "role:members", 341},
		{"can_create_bots_group", "role:members", 344},
		{"can_create_write_only_bots_group", "role:members", 344},
		{"can_summarize_topics_group", "role:everyone", 350},
		{"can_manage_billing_group", "role:administrators", 363},
		{"can_set_topics_policy_group", "role:members", 392},
		{"can_set_delete_message_policy_group", "role:moderators", 407},
	} {
		for _, level := range []int{c.since - 1, c.since} {
			base := newServerAt(t, level).URL
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
			got, shown := state["realm_"+c.setting]
			switch {
			case shown != (level >= c.since):
				t.Errorf("at level %d: realm_%s shown %v", level, c.setting, shown)
			case shown && fmt.Sprint(got) != groupByName(t, base, c.group):
				t.Errorf("at level %d: realm_%s %v, want %s's ID", level, c.setting, got, c.group)
			}
		}
	}
}

// The export holds every channel folder, archived ones too, and each channel's folder_id.
func TestRealmExportChannelFolders(t *testing.T) {
	base := newCheckedServer(t)
	for _, name := range []string{"Engineering", "Old"} {
		requireSuccess(t, "folder", post(t, base, adminAuth, "/api/v1/channel_folders/create", "name", name, "description", "about "+name))
	}
	requireSuccess(t, "archive", patch(t, base, adminAuth, "/api/v1/channel_folders/2", "is_archived", "true"))
	requireSuccess(t, "general in a folder", patch(t, base, adminAuth, "/api/v1/streams/1", "folder_id", "1"))
	requireSuccess(t, "a channel in none", post(t, base, ownerAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name":"loose"}]`))
	requireSuccess(t, "export", post(t, base, adminAuth, "/api/v1/export/realm", "export_type", "public"))
	list := requireSuccess(t, "list", get(t, base, adminAuth, "/api/v1/export/realm", ""))["exports"].([]any)
	u, err := url.Parse(list[0].(map[string]any)["export_url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Folders []map[string]any `json:"channel_folders"`
		Streams []map[string]any `json:"streams"`
	}
	if err := json.Unmarshal(do(t, base, request{method: http.MethodGet, path: u.Path}).body, &doc); err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, f := range doc.Folders {
		folders = append(folders, fmt.Sprintf("%v:%v:%v:%v", f["id"], f["name"], f["description"], f["is_archived"]))
	}
	if got := strings.Join(folders, ","); got != "1:Engineering:about Engineering:false,2:Old:about Old:true" {
		t.Errorf("exported channel_folders %s", got)
	}
	in := map[any]any{}
	for _, ch := range doc.Streams {
		in[ch["name"]] = ch["folder_id"]
	}
	if in["general"] != float64(1) || in["loose"] != nil || len(in) != 2 {
		t.Errorf("exported channels' folder_id %v", in)
	}
}
