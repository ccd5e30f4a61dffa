package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// The organization's settings through PATCH /realm: each change is echoed, announced to every
// user's realm queue in the real server's form, and read back in register (and GET
// /server_settings for the name and description); a value the setting already has is neither
// echoed nor announced.
func TestRealmSettings(t *testing.T) {
	base := newCheckedServer(t)
	admins := groupByName(t, base, "role:administrators")
	cases := []struct {
		name   string
		params []string
		// echo is the answer's changed settings; events the realm events, in order.
		echo     string
		events   []string
		register map[string]any
	}{
		{"the name", []string{"name", "Renamed Org"}, `{"name":"updated"}`,
			[]string{`{"op":"update","property":"name","type":"realm","value":"Renamed Org"}`},
			map[string]any{"realm_name": "Renamed Org"}},
		{"the description, rendered where shown", []string{"description", "We **chat**."}, `{"description":"updated"}`,
			[]string{`{"op":"update","property":"description","type":"realm","value":"We **chat**."}`},
			map[string]any{"realm_description": "<p>We <strong>chat</strong>.</p>"}},
		{"a video call provider and its server", []string{"video_chat_provider", "4", "jitsi_server_url", `"https://meet.example.test"`},
			`{"jitsi_server_url":"updated","video_chat_provider":4}`,
			[]string{
				`{"op":"update","property":"jitsi_server_url","type":"realm","value":"https://meet.example.test"}`,
				`{"op":"update","property":"video_chat_provider","type":"realm","value":4}`,
			},
			map[string]any{"realm_video_chat_provider": 4.0, "realm_jitsi_server_url": "https://meet.example.test"}},
		{"the server's own Jitsi server again", []string{"jitsi_server_url", `"default"`}, `{"jitsi_server_url":null}`,
			[]string{`{"op":"update","property":"jitsi_server_url","type":"realm","value":null}`},
			map[string]any{"realm_jitsi_server_url": nil}},
		{"owner settings, one unchanged", []string{"waiting_period_threshold", "3", "invite_required", "true", "message_retention_days", "30"},
			`{"message_retention_days":30,"waiting_period_threshold":3}`,
			[]string{
				`{"op":"update","property":"message_retention_days","type":"realm","value":30}`,
				`{"op":"update","property":"waiting_period_threshold","type":"realm","value":3}`,
			},
			map[string]any{"realm_waiting_period_threshold": 3.0, "realm_invite_required": true, "realm_message_retention_days": 30.0}},
		{"retention unlimited", []string{"message_retention_days", `"unlimited"`}, `{"message_retention_days":-1}`,
			[]string{`{"op":"update","property":"message_retention_days","type":"realm","value":-1}`},
			map[string]any{"realm_message_retention_days": -1.0}},
		{"the language and a digest day", []string{"default_language", "de", "digest_weekday", "4"}, `{"default_language":"updated","digest_weekday":4}`,
			[]string{
				`{"op":"update","property":"default_language","type":"realm","value":"de"}`,
				`{"op":"update","property":"digest_weekday","type":"realm","value":4}`,
			},
			map[string]any{"realm_default_language": "de", "realm_digest_weekday": 4.0}},
		{"no delete limit", []string{"message_content_delete_limit_seconds", `"unlimited"`}, `{"message_content_delete_limit_seconds":null}`,
			[]string{`{"op":"update","property":"message_content_delete_limit_seconds","type":"realm","value":null}`},
			map[string]any{"realm_message_content_delete_limit_seconds": nil}},
		{"an announcement channel", []string{"new_stream_announcements_stream_id", "1"}, `{"new_stream_announcements_stream_id":1}`,
			[]string{`{"op":"update","property":"new_stream_announcements_stream_id","type":"realm","value":1}`},
			map[string]any{"realm_new_stream_announcements_stream_id": 1.0}},
		{"booleans, one unchanged", []string{"enable_spectator_access", "false", "enable_read_receipts", "true", "org_type", "20"},
			`{"enable_read_receipts":true,"org_type":20}`,
			[]string{
				`{"op":"update","property":"enable_read_receipts","type":"realm","value":true}`,
				`{"op":"update","property":"org_type","type":"realm","value":20}`,
			},
			map[string]any{"realm_enable_spectator_access": false, "realm_enable_read_receipts": true, "realm_org_type": 20.0}},
		{"a permission group setting", []string{"can_create_groups", `{"new":` + admins + `}`}, `{"can_create_groups":` + admins + `}`,
			[]string{`{"data":{"can_create_groups":` + admins + `},"op":"update_dict","property":"default","type":"realm"}`},
			map[string]any{"realm_can_create_groups": float64(atoi(t, admins))}},
	}
	for _, c := range cases {
		queue := evRegister(t, base, memberAuth, "event_types", `["realm"]`)
		reply := requireSuccess(t, c.name, patch(t, base, ownerAuth, "/api/v1/realm", c.params...))
		delete(reply, "result")
		delete(reply, "msg")
		if got := canonical(reply); got != c.echo {
			t.Errorf("%s: answer %s, want %s", c.name, got, c.echo)
		}
		var got []string
		for _, ev := range eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "realm") {
			delete(ev, "id")
			got = append(got, canonical(ev))
		}
		if strings.Join(got, "\n") != strings.Join(c.events, "\n") {
			t.Errorf("%s: events\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.events, "\n"))
		}
		state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
		for key, want := range c.register {
			if state[key] != want {
				t.Errorf("%s: register's %s is %v, want %v", c.name, key, state[key], want)
			}
		}
	}
	shown := requireSuccess(t, "server settings", get(t, base, "", "/api/v1/server_settings", ""))
	if shown["realm_name"] != "Renamed Org" || shown["realm_description"] != "<p>We <strong>chat</strong>.</p>" {
		t.Errorf("GET /server_settings: realm_name %v, realm_description %v", shown["realm_name"], shown["realm_description"])
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The delete time limit holds senders to it: past 600 seconds a member's own message stays,
// and with no limit it can go.
func TestRealmDeleteLimit(t *testing.T) {
	base := newCheckedServer(t)
	id := requireSuccess(t, "send", post(t, base, memberAuth, "/api/v1/messages",
		"type", "channel", "to", "general", "topic", "limits", "content", "to delete"))["id"]
	requireSuccess(t, "clock", post(t, base, "", "/_fake/clock", "advance", "601"))
	deletion := request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/messages/%v", id), auth: memberAuth}
	if res := do(t, base, deletion); res.status != http.StatusBadRequest {
		t.Errorf("a deletion past the limit: %s", res)
	}
	requireSuccess(t, "limit", patch(t, base, adminAuth, "/api/v1/realm", "message_content_delete_limit_seconds", `"unlimited"`))
	requireSuccess(t, "deletion without a limit", do(t, base, deletion))
}

// The settings the real server added at a level: one level below, PATCH /realm ignores them
// (listing them as unsupported where answers list them) and register does not show them; at the level it changes them
// and register shows them. The announcement channels had other names before 241.
func TestRealmSettingsByLevel(t *testing.T) {
	for _, c := range []struct {
		boundary       int
		setting, value string
		want           any
		older          string // the name the setting had below the boundary ("": none)
	}{
		{realm.LevelSpectatorAccess, "enable_spectator_access", "true", true, ""},
		{realm.LevelOrgType, "org_type", "10", 10.0, ""},
		{realm.LevelCommunitiesDirectory, "want_advertise_in_communities_directory", "true", true, ""},
		{realm.LevelReadReceipts, "enable_read_receipts", "true", true, ""},
		{realm.LevelJitsiServerURL, "jitsi_server_url", `"https://meet.example.test"`, "https://meet.example.test", ""},
		{realm.LevelGuestIndicator, "enable_guest_user_indicator", "false", false, ""},
		{realm.LevelRequireUniqueNames, "require_unique_names", "true", true, ""},
		{realm.LevelUpdateAnnouncements, "zulip_update_announcements_stream_id", "1", 1.0, ""},
		{realm.LevelGuestDMWarning, "enable_guest_user_dm_warning", "false", false, ""},
		{299, "can_create_groups", `{"new": 3}`, 3.0, ""}, // role:administrators
		{realm.LevelAnnouncementChannels, "new_stream_announcements_stream_id", "1", 1.0, "notifications_stream_id"},
		{realm.LevelAnnouncementChannels, "signup_announcements_stream_id", "1", 1.0, "signup_notifications_stream_id"},
	} {
		for _, level := range []int{c.boundary - 1, c.boundary} {
			base := newServerAt(t, level).URL
			name := c.setting
			if level < c.boundary && c.older != "" {
				name = c.older
			}
			params := []string{c.setting, c.value}
			if c.older != "" {
				params = append(params, c.older, c.value)
			}
			reply := requireSuccess(t, "change", patch(t, base, ownerAuth, "/api/v1/realm", params...))
			ignored := canonical(reply["ignored_parameters_unsupported"])
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
			value, shown := state["realm_"+c.setting]
			taken := level >= c.boundary
			// Below LevelIgnoredParametersUnsupported no answer lists what it ignored.
			listed := !taken && level >= realm.LevelIgnoredParametersUnsupported
			if shown != taken || strings.Contains(ignored, `"`+c.setting+`"`) != listed || taken && value != c.want {
				t.Errorf("at level %d: realm_%s shown %v (%v after setting %s), ignored %s", level, c.setting, shown, value, c.value, ignored)
			}
			if c.older == "" {
				continue
			}
			if value, shown := state["realm_"+name]; !shown || value != c.want || strings.Contains(ignored, `"`+name+`"`) {
				t.Errorf("at level %d: realm_%s %v (shown %v), ignored %s", level, name, value, shown, ignored)
			}
		}
	}
}
