package api_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesRealm adds the bad-input cases of the routes whose handlers are in realm.go.
func routeCasesRealm(add func(routeSpec)) {
	realmPatch := routeSpec{method: "PATCH", pattern: "/api/v1/realm", path: "/api/v1/realm", role: fixtures.RoleOwner,
		params: []param{
			{name: "allow_message_editing", kind: kBool}, {name: "message_content_edit_limit_seconds", kind: kInt},
			{name: "move_messages_within_stream_limit_seconds", kind: kInt}, {name: "move_messages_between_streams_limit_seconds", kind: kInt},
			{name: "message_content_delete_limit_seconds", kind: kInt},
			{name: "moderation_request_channel_id", kind: kInt},
			// One plain setting of each kind (realm_settings.go).
			{name: "name", kind: kString, oversizeFails: true}, {name: "default_language", kind: kString, oversizeFails: true},
			{name: "invite_required", kind: kBool}, {name: "waiting_period_threshold", kind: kInt},
			{name: "message_retention_days", kind: kInt}, {name: "new_stream_announcements_stream_id", kind: kInt},
		},
		valid: []string{"allow_message_editing", "true"}}
	realmPatch.extra = []badCase{
		{"member", realmPatch.as(memberAuth), principalAdmin},
		{"zero limit", realmPatch.with("message_content_edit_limit_seconds", "0"), badRequest("message_content_edit_limit_seconds is too small")},
		{"limit beyond 32 bits", realmPatch.with("message_content_edit_limit_seconds", "2147483648"), badRequest("message_content_edit_limit_seconds is too large")},
		{"a public moderation channel", realmPatch.with("moderation_request_channel_id", "1"), badRequest("Moderation request channel must be private.")},
		{"an unknown moderation channel", realmPatch.with("moderation_request_channel_id", "99"), badRequest("Invalid channel ID")},
		{"limit as another word", realmPatch.with("move_messages_within_stream_limit_seconds", `"forever"`), badRequest("move_messages_within_stream_limit_seconds is not an integer")},
		{"zero delete limit", realmPatch.with("message_content_delete_limit_seconds", "0"), badRequest("message_content_delete_limit_seconds is too small")},
	}
	realmPatch.extra = append(realmPatch.extra, realmSettingCases(realmPatch)...)
	add(realmPatch)
}

// realmSettingCases are the refusals of the plain organization settings, each with a valid
// change beside it that must not be kept either (all or nothing).
func realmSettingCases(rs routeSpec) []badCase {
	owner := bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	cases := []struct {
		name     string
		param, v string
		auth     string
		want     want
	}{
		{"a name of 41 characters", "name", strings.Repeat("n", 41), ownerAuth, badRequest("name is too long (limit: 40 characters)")},
		{"a description of 1001 characters", "description", strings.Repeat("d", 1001), ownerAuth, badRequest("description is too long (limit: 1000 characters)")},
		{"an unknown language", "default_language", "xx", ownerAuth, badRequest("Invalid language 'xx'")},
		{"an unknown video call provider", "video_chat_provider", "2", ownerAuth, badRequest("Invalid video_chat_provider 2")},
		{"an eighth weekday", "digest_weekday", "7", ownerAuth, badRequest("Invalid digest_weekday")},
		{"an unknown organization type", "org_type", "5", ownerAuth, badRequest("Invalid org_type")},
		{"a negative waiting period", "waiting_period_threshold", "-1", ownerAuth, badRequest("waiting_period_threshold is too small")},
		{"no retention days", "message_retention_days", "0", ownerAuth, badRequest("Bad value for 'message_retention_days': 0")},
		{"retention as another word", "message_retention_days", `"forever"`, ownerAuth, badRequest("message_retention_days is not an integer")},
		{"a Jitsi server that is no URL", "jitsi_server_url", `"jitsi"`, ownerAuth, badRequest("jitsi_server_url is not an allowed_type")},
		{"a Jitsi server URL unencoded", "jitsi_server_url", "https://jitsi.example", ownerAuth, badRequest("jitsi_server_url is not valid JSON")},
		{"a Jitsi server as a number", "jitsi_server_url", "5", ownerAuth, badRequest("jitsi_server_url is not a string")},
		{"an unknown announcement channel", "new_stream_announcements_stream_id", "99", ownerAuth, badRequest("Invalid channel ID")},
		{"invitations by an administrator", "invite_required", "false", adminAuth, owner},
		{"the waiting period by an administrator", "waiting_period_threshold", "3", adminAuth, owner},
		{"retention by an administrator", "message_retention_days", "30", adminAuth, owner},
		{"email domains by an administrator", "emails_restricted_to_domains", "true", adminAuth, owner},
		// The system groups have IDs 1 (role:nobody) to 7 (role:everyone), in the order of their widening.
		{"group creation by an administrator", "can_create_groups", `{"new": 3}`, adminAuth, owner},
		{"a system group the setting may not be", "can_access_all_users_group", `{"new": 4}`, ownerAuth,
			badRequest("'can_access_all_users_group' setting cannot be set to 'role:moderators' group.")},
		{"everyone where the setting may not be", "can_create_groups", `{"new": 7}`, ownerAuth,
			badRequest("'can_create_groups' setting cannot be set to 'role:everyone' group.")},
	}
	out := make([]badCase, 0, len(cases))
	for _, c := range cases {
		out = append(out, badCase{c.name + " (all or nothing)", rs.as(c.auth, "name", "Renamed", "enable_read_receipts", "true", c.param, c.v), c.want})
	}
	return out
}

// realmSettingsStateOf adds the organization's settings as register gives them.
func realmSettingsStateOf(t testing.TB, base string, state map[string]any) {
	t.Helper()
	res := post(t, base, ownerAuth, "/api/v1/register", "fetch_event_types", `["realm"]`)
	if res.env == nil {
		recordField(state, "realm settings", res, "")
		return
	}
	for _, key := range slices.Sorted(maps.Keys(res.env)) {
		if strings.HasPrefix(key, "realm_") {
			state["register "+key] = res.env[key]
		}
	}
}
