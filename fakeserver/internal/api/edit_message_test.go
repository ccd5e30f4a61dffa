package api_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// msgSend sends a channel message to general as auth and returns its ID.
func msgSend(t *testing.T, base, auth, topic, content string) int {
	t.Helper()
	env := requireSuccess(t, "send", post(t, base, auth, "/api/v1/messages", "type", "channel", "to", setupChan, "topic", topic, "content", content))
	return int(env["id"].(float64))
}

func msgPatch(t *testing.T, base, auth, path string, kv ...string) response {
	t.Helper()
	return do(t, base, request{method: http.MethodPatch, path: path, body: formBody(kv...), contentType: formType, auth: auth})
}

func msgFetch(t *testing.T, base, auth string, id int) map[string]any {
	t.Helper()
	env := requireSuccess(t, "fetch", get(t, base, auth, "/api/v1/messages/"+strconv.Itoa(id), "allow_empty_topic_name=true"))
	return env["message"].(map[string]any)
}

// TestRealmGroupSettings: PATCH /realm takes a permission group setting as the real server's
// {"new", "old"} object or as a bare group ID (harness.ChangeRealmSetting sends that), shows it
// in the registration state and announces it in a realm update_dict event.
func TestRealmGroupSettings(t *testing.T) {
	ts := newServer(t)
	state := func() map[string]any {
		return requireSuccess(t, "register", post(t, ts.URL, ownerAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
	}
	defaults := map[string]float64{
		"realm_can_resolve_topics_group":                 7, // role:everyone
		"realm_can_move_messages_between_topics_group":   7,
		"realm_can_move_messages_between_channels_group": 6, // role:members
		"realm_can_mention_many_users_group":             3, // role:administrators
	}
	st := state()
	for key, want := range defaults {
		if st[key] != want {
			t.Errorf("%s = %v, want the real server's default group %v", key, st[key], want)
		}
	}
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["realm"]`)
	for _, tc := range []struct {
		name, value string
		want        float64
	}{
		{"bare group ID", "4", 4},
		{"new and matching old", `{"new": 2, "old": 4}`, 2},
		{"new only", `{"new": 5}`, 5},
	} {
		requireSuccess(t, tc.name, msgPatch(t, ts.URL, ownerAuth, "/api/v1/realm", "can_resolve_topics_group", tc.value))
		if got := state()["realm_can_resolve_topics_group"]; got != tc.want {
			t.Errorf("%s: realm_can_resolve_topics_group = %v, want %v", tc.name, got, tc.want)
		}
	}
	if evs := evPoll(t, ts.URL, memberAuth, queue, -1, true); len(evs) != 3 {
		t.Errorf("%d realm events, want 3: %v", len(evs), evs)
	}
	for _, tc := range []struct {
		name, setting, value, code string
	}{
		{"old does not match", "can_resolve_topics_group", `{"new": 2, "old": 7}`, "EXPECTATION_MISMATCH"},
		{"unknown group", "can_resolve_topics_group", "999", "BAD_REQUEST"},
		{"everyone moving between channels", "can_move_messages_between_channels_group", "7", "BAD_REQUEST"},
		{"not a group", "can_resolve_topics_group", `"admins"`, "BAD_REQUEST"},
		{"unexpected key", "can_resolve_topics_group", `{"new": 2, "older": 7}`, "BAD_REQUEST"},
		{"anonymous group with a bad member", "can_mention_many_users_group", `{"new": {"direct_members": ["x"]}}`, "BAD_REQUEST"},
		{"anonymous group with an unknown member", "can_mention_many_users_group", `{"direct_members": [999], "direct_subgroups": []}`, "BAD_REQUEST"},
		{"unknown history policy", "message_edit_history_visibility_policy", `"sometimes"`, "BAD_REQUEST"},
		{"history policy not JSON", "message_edit_history_visibility_policy", `none`, "BAD_REQUEST"},
		{"unknown topics policy", "topics_policy", `"empty_topic_only_please"`, "BAD_REQUEST"},
		{"mandatory_topics not a boolean", "mandatory_topics", `"yes"`, "BAD_REQUEST"},
		{"allow_edit_history not a boolean", "allow_edit_history", `1`, "BAD_REQUEST"},
	} {
		res := msgPatch(t, ts.URL, ownerAuth, "/api/v1/realm", tc.setting, tc.value)
		if res.env["result"] != "error" || res.env["code"] != tc.code {
			t.Errorf("%s: %s", tc.name, res)
		}
	}
	st = state()
	if got := st["realm_can_resolve_topics_group"]; got != float64(5) {
		t.Errorf("a refused change changed the setting to %v", got)
	}
	if st["realm_message_edit_history_visibility_policy"] != "all" || st["realm_topics_policy"] != "allow_empty_topic" {
		t.Errorf("a refused change changed a policy: %v %v", st["realm_message_edit_history_visibility_policy"], st["realm_topics_policy"])
	}
	// The older names of the policies still work, and an anonymous group is shown as one.
	requireSuccess(t, "legacy names", msgPatch(t, ts.URL, ownerAuth, "/api/v1/realm", "allow_edit_history", "false", "mandatory_topics", "true",
		"can_mention_many_users_group", `{"new": {"direct_members": [4, 4], "direct_subgroups": [3]}}`))
	st = state()
	if st["realm_message_edit_history_visibility_policy"] != "none" || st["realm_topics_policy"] != "disable_empty_topic" ||
		st["realm_allow_edit_history"] != false || st["realm_mandatory_topics"] != true ||
		canonical(st["realm_can_mention_many_users_group"]) != `{"direct_members":[4],"direct_subgroups":[3]}` {
		t.Errorf("after the legacy names: %v %v %v %v %v", st["realm_message_edit_history_visibility_policy"], st["realm_topics_policy"],
			st["realm_allow_edit_history"], st["realm_mandatory_topics"], st["realm_can_mention_many_users_group"])
	}
}

// TestEditEventsAndNotices: an edit announces update_message with the moved IDs, a move posts
// the notification bot's notice, and the bot is no member of the realm.
func TestEditEventsAndNotices(t *testing.T) {
	ts := newServer(t)
	first := msgSend(t, ts.URL, memberAuth, "origin", "one")
	second := msgSend(t, ts.URL, memberAuth, "origin", "two")
	queue := evRegister(t, ts.URL, adminAuth, "event_types", `["update_message","message"]`)
	requireSuccess(t, "move", msgPatch(t, ts.URL, memberAuth, "/api/v1/messages/"+strconv.Itoa(second),
		"topic", "destination", "propagate_mode", "change_all", "send_notification_to_old_thread", "true"))
	evs := evPoll(t, ts.URL, adminAuth, queue, -1, true)
	var update map[string]any
	var notices []string
	for _, ev := range evs {
		switch ev["type"] {
		case "update_message":
			update = ev
		case "message":
			notices = append(notices, ev["message"].(map[string]any)["subject"].(string))
		}
	}
	if update == nil || canonical(update["message_ids"]) != canonical([]int{first, second}) ||
		update["orig_subject"] != "origin" || update["subject"] != "destination" || update["propagate_mode"] != "change_all" {
		t.Errorf("update_message event %v", update)
	}
	if canonical(notices) != canonical([]string{"destination", "origin"}) {
		t.Errorf("notices posted to %v, want the new thread then the old one", notices)
	}
	users := requireSuccess(t, "users", get(t, ts.URL, ownerAuth, "/api/v1/users", ""))
	for _, u := range users["members"].([]any) {
		if u.(map[string]any)["email"] == "notification-bot@zulip.com" {
			t.Errorf("the notification bot is listed as a member of the realm")
		}
	}
	if m := msgFetch(t, ts.URL, memberAuth, first); m["subject"] != "destination" {
		t.Errorf("first message in %v", m["subject"])
	}
}

// TestMessageWindow: GET /messages returns the narrow's messages around the anchor, with
// found_anchor, found_oldest and found_newest as the real server sets them.
func TestMessageWindow(t *testing.T) {
	ts := newServer(t)
	var ids []int
	for _, c := range []string{"a", "b", "c", "d", "e"} {
		ids = append(ids, msgSend(t, ts.URL, ownerAuth, "window", c))
	}
	narrow := `[["stream","general"],["topic","window"]]`
	for _, tc := range []struct {
		anchor                      string
		before, after               string
		want                        []int
		foundAnchor, oldest, newest bool
	}{
		{"newest", "2", "0", ids[3:], false, false, true},
		{"oldest", "0", "2", ids[:2], false, true, false},
		{strconv.Itoa(ids[2]), "1", "1", ids[1:4], true, false, false},
		{strconv.Itoa(ids[2]), "10", "10", ids, true, true, true},
		{"first_unread", "0", "10", nil, false, false, true}, // the owner has read all: the anchor is past the newest
	} {
		q := url.Values{"anchor": {tc.anchor}, "num_before": {tc.before}, "num_after": {tc.after}, "narrow": {narrow}}
		env := requireSuccess(t, "window", get(t, ts.URL, ownerAuth, "/api/v1/messages", q.Encode()))
		var got []int
		for _, m := range env["messages"].([]any) {
			got = append(got, int(m.(map[string]any)["id"].(float64)))
		}
		if canonical(got) != canonical(tc.want) || env["found_anchor"] != tc.foundAnchor ||
			env["found_oldest"] != tc.oldest || env["found_newest"] != tc.newest {
			t.Errorf("anchor %s -%s +%s: %v anchor=%v oldest=%v newest=%v, want %v %v %v %v", tc.anchor, tc.before, tc.after,
				got, env["found_anchor"], env["found_oldest"], env["found_newest"], tc.want, tc.foundAnchor, tc.oldest, tc.newest)
		}
	}
}

// TestMutingFollowsAMovedTopic: a user's muting of a topic moves with the whole topic and is
// forgotten when the topic is deleted, as on the real server.
func TestMutingFollowsAMovedTopic(t *testing.T) {
	ts := newServer(t)
	id := msgSend(t, ts.URL, ownerAuth, "muted", "shh")
	requireSuccess(t, "mute", msgPatch(t, ts.URL, memberAuth, "/api/v1/users/me/subscriptions/muted_topics",
		"stream", setupChan, "topic", "muted", "op", "add"))
	requireSuccess(t, "move", msgPatch(t, ts.URL, ownerAuth, "/api/v1/messages/"+strconv.Itoa(id), "topic", "still muted", "propagate_mode", "change_all"))
	muted := func() string {
		env := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["muted_topics"]`))
		return canonical(env["muted_topics"])
	}
	if got := muted(); got != `[["general","still muted",1767225600]]` {
		t.Errorf("muted topics after the move: %s", got)
	}
	requireSuccess(t, "delete", post(t, ts.URL, ownerAuth, "/api/v1/streams/1/delete_topic", "topic_name", "still muted"))
	if got := muted(); got != `[]` {
		t.Errorf("muted topics after deleting the topic: %s", got)
	}
}
