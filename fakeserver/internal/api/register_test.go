package api_test

// POST /register as real clients use it: the options that shape a queue's events, and the
// state keys each event type brings.

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// regEvents registers a queue with the given options, runs act, and returns the events the
// queue received (heartbeats never come: dont_block).
func regEvents(t *testing.T, base, auth string, act func(), kv ...string) []map[string]any {
	t.Helper()
	q := evRegister(t, base, auth, kv...)
	act()
	return evPoll(t, base, auth, q, -1, true)
}

func eventsOfType(evs []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, ev := range evs {
		if ev["type"] == typ {
			out = append(out, ev)
		}
	}
	return out
}

// TestRegisterMessageForm: message events carry raw Markdown unless the queue asked for
// apply_markdown, the avatar URL is null under client_gravatar (the default), and flags sit
// beside the message, never inside it.
func TestRegisterMessageForm(t *testing.T) {
	ts := newServer(t)
	for _, tc := range []struct {
		name           string
		kv             []string
		content, ctype string
		avatarNull     bool
	}{
		{"defaults", nil, "**bold**", "text/x-markdown", true},
		{"apply_markdown", []string{"apply_markdown", "true"}, "<p><strong>bold</strong></p>", "text/html", true},
		{"client_gravatar false", []string{"client_gravatar", "false"}, "**bold**", "text/x-markdown", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := eventsOfType(regEvents(t, ts.URL, memberAuth, func() { msgSend(t, ts.URL, ownerAuth, "form", "**bold**") },
				append([]string{"event_types", `["message"]`}, tc.kv...)...), "message")
			if len(evs) != 1 {
				t.Fatalf("message events %v, want one", evs)
			}
			m := evs[0]["message"].(map[string]any)
			if m["content"] != tc.content || m["content_type"] != tc.ctype {
				t.Errorf("content %q (%v), want %q (%s)", m["content"], m["content_type"], tc.content, tc.ctype)
			}
			if (m["avatar_url"] == nil) != tc.avatarNull {
				t.Errorf("avatar_url %v, want null: %v", m["avatar_url"], tc.avatarNull)
			}
			if _, inside := m["flags"]; inside {
				t.Errorf("flags inside the message: %v", m)
			}
			if _, beside := evs[0]["flags"].([]any); !beside {
				t.Errorf("no flags list beside the message: %v", evs[0])
			}
		})
	}
}

// TestRegisterNarrow: a narrowed queue receives only the message events matching it, and
// other events as usual; operators the real server cannot apply to events are refused.
func TestRegisterNarrow(t *testing.T) {
	ts := newServer(t)
	member := 4
	for _, tc := range []struct {
		narrow      string
		wantChannel bool
		wantDirect  bool
	}{
		{`[["stream", "general"]]`, true, false},
		{`[["channel", "GENERAL"], ["topic", "narrowed"]]`, true, false},
		{`[{"operator": "is", "operand": "dm"}]`, false, true},
		{`[["sender", "owner@chat.example.test"]]`, true, true},
		{`[["stream", "elsewhere"]]`, false, false},
		{`[]`, true, true},
	} {
		t.Run(tc.narrow, func(t *testing.T) {
			evs := regEvents(t, ts.URL, memberAuth, func() {
				msgSend(t, ts.URL, ownerAuth, "narrowed", "in the channel")
				evSendDirect(t, ts.URL, ownerAuth, member, "direct")
				ts.Server.AdvanceClock(200 * time.Second) // the owner went offline meanwhile: coming back is news
				requireSuccess(t, "presence", post(t, ts.URL, ownerAuth, "/api/v1/users/me/presence", "status", "active"))
			}, "narrow", tc.narrow)
			var channel, direct bool
			for _, ev := range eventsOfType(evs, "message") {
				m := ev["message"].(map[string]any)
				channel = channel || m["type"] == "stream"
				direct = direct || m["type"] == "private"
			}
			if channel != tc.wantChannel || direct != tc.wantDirect {
				t.Errorf("channel message %v, direct message %v; want %v, %v", channel, direct, tc.wantChannel, tc.wantDirect)
			}
			if len(eventsOfType(evs, "presence")) == 0 {
				t.Errorf("no presence event: a narrow filters message events only")
			}
		})
	}
	for narrow, msg := range map[string]string{
		`[["search", "x"]]`:    "Operator search not supported.",
		`[["is", "followed"]]`: "Operand followed not supported.",
		`[["stream"]]`:         "narrow[0] is not length 2",
		`[["stream", 1]]`:      "narrow[0][1] is not a string",
		`{"stream": "x"}`:      "narrow is not a list",
	} {
		checkBad(t, badCase{want: badRequest(msg)}, post(t, ts.URL, memberAuth, "/api/v1/register", "narrow", narrow))
	}
}

// TestRegisterAllPublicStreams: all_public_streams brings the messages of public channels
// the user is not subscribed to (with empty flags); guests may not ask for it.
func TestRegisterAllPublicStreams(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "create", post(t, ts.URL, ownerAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name": "elsewhere"}]`))
	send := func() {
		requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "channel", "to", "elsewhere", "topic", "t", "content", "hello"))
	}
	if evs := eventsOfType(regEvents(t, ts.URL, memberAuth, send), "message"); len(evs) != 0 {
		t.Errorf("a non-subscriber got %v without all_public_streams", evs)
	}
	evs := eventsOfType(regEvents(t, ts.URL, memberAuth, send, "all_public_streams", "true"), "message")
	if len(evs) != 1 || canonical(evs[0]["flags"]) != "[]" {
		t.Errorf("with all_public_streams: %v, want the message with no flags", evs)
	}
	checkBad(t, badCase{want: badRequest("User not authorized for this query")},
		post(t, ts.URL, guestAuth, "/api/v1/register", "all_public_streams", "true"))
}

// TestRegisterBulkMessageDeletion: clients with the bulk_message_deletion capability get one
// event with message_ids; others one event per message with message_id.
func TestRegisterBulkMessageDeletion(t *testing.T) {
	ts := newServer(t)
	for _, tc := range []struct {
		caps string
		want string
	}{
		{`{"notification_settings_null": false, "bulk_message_deletion": true}`, "message_ids"},
		{`{"notification_settings_null": false}`, "message_id"},
	} {
		id := msgSend(t, ts.URL, ownerAuth, "doomed", "to be deleted")
		evs := eventsOfType(regEvents(t, ts.URL, memberAuth, func() {
			requireSuccess(t, "delete", do(t, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/messages/%d", id), auth: ownerAuth}))
		}, "client_capabilities", tc.caps), "delete_message")
		if len(evs) != 1 {
			t.Fatalf("%s: delete events %v, want one", tc.caps, evs)
		}
		got := canonical(evs[0][tc.want])
		if tc.want == "message_ids" && got != fmt.Sprintf("[%d]", id) || tc.want == "message_id" && got != fmt.Sprint(id) {
			t.Errorf("%s: event %v, want %s %d", tc.caps, evs[0], tc.want, id)
		}
	}
	checkBad(t, badCase{want: badRequest(`client_capabilities["bulk_message_deletion"] is not a boolean`)},
		post(t, ts.URL, memberAuth, "/api/v1/register", "client_capabilities", `{"bulk_message_deletion": 1}`))
}

// TestDeleteEventOnlyToReaders: in a private channel with protected history, a subscriber
// who joined after a message was sent never hears of its deletion.
func TestDeleteEventOnlyToReaders(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "create", post(t, ts.URL, ownerAuth, "/api/v1/users/me/subscriptions",
		"subscriptions", `[{"name": "secret"}]`, "invite_only", "true", "history_public_to_subscribers", "false"))
	env := requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "channel", "to", "secret", "topic", "t", "content", "before"))
	requireSuccess(t, "join", post(t, ts.URL, ownerAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name": "secret"}]`, "principals", "[4]"))
	evs := regEvents(t, ts.URL, memberAuth, func() {
		requireSuccess(t, "delete", do(t, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/messages/%v", env["id"]), auth: ownerAuth}))
	}, "event_types", `["delete_message"]`)
	if len(evs) != 0 {
		t.Errorf("a subscriber who could never read the message got %v", evs)
	}
}

// TestRegisterSlimPresence: presence events leave out the email for slim_presence clients.
func TestRegisterSlimPresence(t *testing.T) {
	ts := newServer(t)
	for _, slim := range []bool{false, true} {
		evs := eventsOfType(regEvents(t, ts.URL, memberAuth, func() {
			ts.Server.AdvanceClock(200 * time.Second)
			requireSuccess(t, "presence", post(t, ts.URL, ownerAuth, "/api/v1/users/me/presence", "status", "active"))
		}, "slim_presence", fmt.Sprint(slim)), "presence")
		if len(evs) != 1 {
			t.Fatalf("slim %v: presence events %v", slim, evs)
		}
		if _, hasEmail := evs[0]["email"]; hasEmail == slim {
			t.Errorf("slim %v: event %v", slim, evs[0])
		}
	}
}

// registerKeys are the state keys each event type brings, as on the real server.
var registerKeys = map[string][]string{
	"realm": {"realm_name", "realm_date_created", "server_generation", "max_topic_length", "max_message_length",
		"realm_empty_topic_display_name", "event_queue_longpoll_timeout_seconds", "server_presence_ping_interval_seconds",
		"server_presence_offline_threshold_seconds", "server_typing_started_expiry_period_milliseconds",
		"realm_allow_message_editing", "realm_message_content_edit_limit_seconds"},
	"realm_user":                  {"realm_users", "realm_non_active_users", "cross_realm_bots", "user_id", "email", "full_name", "delivery_email", "is_admin"},
	"realm_bot":                   {"realm_bots"},
	"subscription":                {"subscriptions", "unsubscribed", "never_subscribed"},
	"stream":                      {"streams"},
	"message":                     {"max_message_id"},
	"presence":                    {"presences", "server_timestamp", "presence_last_update_id"},
	"realm_user_groups":           {"realm_user_groups"},
	"realm_emoji":                 {"realm_emoji"},
	"realm_linkifiers":            {"realm_linkifiers"},
	"realm_playgrounds":           {"realm_playgrounds"},
	"custom_profile_fields":       {"custom_profile_fields"},
	"user_settings":               {"user_settings"},
	"user_topic":                  {"user_topics"},
	"has_vcall_token":             {"has_vcall_token"},
	"reminders":                   {"reminders"},
	"update_display_settings":     {"twenty_four_hour_time", "default_language", "emojiset_choices"},
	"update_global_notifications": {"enable_sounds", "available_notification_sounds"},
}

// TestRegisterStateKeys: each state key is present when, and only when, its event type was
// asked for; unread_msgs needs both message and update_message_flags.
func TestRegisterStateKeys(t *testing.T) {
	ts := newServer(t)
	always := []string{"queue_id", "last_event_id", "zulip_version", "zulip_feature_level", "zulip_merge_base"}
	for typ, keys := range registerKeys {
		env := requireSuccess(t, typ, post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", fmt.Sprintf(`[%q]`, typ)))
		for _, k := range append(slices.Clone(always), keys...) {
			if _, ok := env[k]; !ok {
				t.Errorf("fetch_event_types [%s]: no %s", typ, k)
			}
		}
		for other, otherKeys := range registerKeys {
			for _, k := range otherKeys {
				if _, ok := env[k]; ok && other != typ && !slices.Contains(keys, k) {
					t.Errorf("fetch_event_types [%s]: %s of %s is there too", typ, k, other)
				}
			}
		}
	}
	env := requireSuccess(t, "unread", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["message", "update_message_flags"]`))
	if unread, ok := env["unread_msgs"].(map[string]any); !ok || unread["count"] == nil {
		t.Errorf("unread_msgs %v", env["unread_msgs"])
	}
	env = requireSuccess(t, "user_settings_object", post(t, ts.URL, memberAuth, "/api/v1/register",
		"fetch_event_types", `["user_settings", "update_display_settings"]`, "client_capabilities", `{"notification_settings_null": true, "user_settings_object": true}`))
	if _, legacy := env["twenty_four_hour_time"]; legacy {
		t.Errorf("legacy top-level settings for a client with user_settings_object")
	}
	if _, legacy := env["emojiset_choices"]; legacy {
		t.Errorf("legacy top-level emojiset_choices for a client with user_settings_object")
	}
}

// TestRegisterLegacySettings: a client without user_settings_object gets every legacy setting
// at the top level (the real server's display_settings_legacy with the time zone, and its
// notification_settings_legacy), each with its user_settings value.
func TestRegisterLegacySettings(t *testing.T) {
	ts := newServer(t)
	legacy := map[string][]string{
		"update_display_settings": {"color_scheme", "default_language", "web_home_view", "demote_inactive_streams",
			"emojiset", "enable_drafts_synchronization", "enter_sends", "fluid_layout_width", "high_contrast_mode",
			"left_side_userlist", "starred_message_counts", "translate_emoticons", "twenty_four_hour_time", "timezone"},
		"update_global_notifications": {"desktop_icon_count_display", "email_notifications_batching_period_seconds",
			"enable_desktop_notifications", "enable_digest_emails", "enable_login_emails", "enable_marketing_emails",
			"enable_offline_email_notifications", "enable_offline_push_notifications", "enable_online_push_notifications",
			"enable_sounds", "enable_stream_audible_notifications", "enable_stream_desktop_notifications",
			"enable_stream_email_notifications", "enable_stream_push_notifications", "message_content_in_email_notifications",
			"notification_sound", "pm_content_in_desktop_notifications", "presence_enabled",
			"realm_name_in_email_notifications_policy", "wildcard_mentions_notify"},
	}
	for eventType, names := range legacy {
		env := requireSuccess(t, eventType, post(t, ts.URL, memberAuth, "/api/v1/register",
			"fetch_event_types", fmt.Sprintf(`["user_settings", %q]`, eventType)))
		settings := env["user_settings"].(map[string]any)
		for _, name := range names {
			if got, ok := env[name]; !ok || canonical(got) != canonical(settings[name]) {
				t.Errorf("%s: top-level %s = %v (present: %v), user_settings has %v", eventType, name, got, ok, settings[name])
			}
		}
	}
}

// TestRegisterSubscriptionState: subscriptions and never_subscribed carry the full channel
// object, subscribers only with include_subscribers, and notification settings null only
// for clients with notification_settings_null.
func TestRegisterSubscriptionState(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "create", post(t, ts.URL, ownerAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name": "elsewhere"}]`))
	plain := requireSuccess(t, "plain", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["subscription"]`))
	full := requireSuccess(t, "full", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["subscription"]`,
		"include_subscribers", "true", "client_capabilities", `{"notification_settings_null": true}`))
	sub := plain["subscriptions"].([]any)[0].(map[string]any)
	for _, k := range channelObjectKeys {
		if _, ok := sub[k]; !ok {
			t.Errorf("subscription lacks %s: %v", k, sub)
		}
	}
	if _, ok := sub["subscribers"]; ok || sub["desktop_notifications"] == nil {
		t.Errorf("subscription without include_subscribers or notification_settings_null: %v", sub)
	}
	fullSub := full["subscriptions"].([]any)[0].(map[string]any)
	if fullSub["subscribers"] == nil || fullSub["desktop_notifications"] != nil {
		t.Errorf("subscription with include_subscribers and notification_settings_null: %v", fullSub)
	}
	never := full["never_subscribed"].([]any)
	if len(never) != 1 || never[0].(map[string]any)["name"] != "elsewhere" || canonical(never[0].(map[string]any)["subscribers"]) != "[1]" {
		t.Errorf("never_subscribed %v, want elsewhere with its subscriber", never)
	}
}

// channelObjectKeys are the fields of the real server's channel object.
var channelObjectKeys = []string{
	"stream_id", "name", "description", "rendered_description", "date_created", "creator_id", "invite_only",
	"is_web_public", "history_public_to_subscribers", "first_message_id", "message_retention_days",
	"stream_weekly_traffic", "is_archived", "is_announcement_only", "stream_post_policy", "topics_policy",
	"can_add_subscribers_group", "can_administer_channel_group", "can_remove_subscribers_group",
	"can_send_message_group", "can_subscribe_group", "can_resolve_topics_group",
}

// TestEventShapes: stream creation carries the full channel object, user groups their
// permission settings, reactions the user as {email, full_name, user_id}; GET /messages
// reactions have no user object (feature level 328).
func TestEventShapes(t *testing.T) {
	ts := newServer(t)
	evs := regEvents(t, ts.URL, memberAuth, func() {
		requireSuccess(t, "create", post(t, ts.URL, ownerAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name": "shapes", "description": "*new*"}]`))
		requireSuccess(t, "group", post(t, ts.URL, ownerAuth, "/api/v1/user_groups/create", "name", "shapers", "description", "d", "members", "[1]"))
	})
	created := eventsOfType(evs, "stream")
	if len(created) != 1 {
		t.Fatalf("stream events %v", created)
	}
	ch := created[0]["streams"].([]any)[0].(map[string]any)
	for _, k := range channelObjectKeys {
		if _, ok := ch[k]; !ok {
			t.Errorf("stream create lacks %s: %v", k, ch)
		}
	}
	if ch["creator_id"] != float64(1) || ch["rendered_description"] != "<p><em>new</em></p>" {
		t.Errorf("creator_id %v, rendered_description %v", ch["creator_id"], ch["rendered_description"])
	}
	groups := eventsOfType(evs, "user_group")
	if len(groups) != 1 {
		t.Fatalf("user_group events %v", groups)
	}
	g := groups[0]["group"].(map[string]any)
	for _, k := range []string{"can_add_members_group", "can_join_group", "can_leave_group", "can_manage_group", "can_mention_group", "can_remove_members_group", "creator_id", "date_created"} {
		if _, ok := g[k]; !ok {
			t.Errorf("user group lacks %s: %v", k, g)
		}
	}

	id := msgSend(t, ts.URL, ownerAuth, "shapes", "react to me")
	react := func() response {
		return post(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/messages/%d/reactions", id), "emoji_name", "octopus")
	}
	evs = eventsOfType(regEvents(t, ts.URL, ownerAuth, func() { requireSuccess(t, "react", react()) }), "reaction")
	if len(evs) != 1 || canonical(evs[0]["user"]) != `{"email":"member@chat.example.test","full_name":"Max Member","user_id":4}` {
		t.Errorf("reaction events %v", evs)
	}
	checkBad(t, badCase{want: bad(400, "REACTION_ALREADY_EXISTS", "Reaction already exists.")}, react())
	reactions := msgFetch(t, ts.URL, ownerAuth, id)["reactions"].([]any)
	if len(reactions) != 1 || reactions[0].(map[string]any)["user"] != nil {
		t.Errorf("GET reactions %v, want no user object", reactions)
	}
}

// TestErrorFields: the extra fields typed clients read from errors.
func TestErrorFields(t *testing.T) {
	ts := newServer(t)
	for _, tc := range []struct {
		name string
		res  response
		key  string
		want string
	}{
		{"channel by id", post(t, ts.URL, memberAuth, "/api/v1/messages", "type", "channel", "to", "999", "topic", "t", "content", "x"), "stream_id", "999"},
		{"bad narrow", get(t, ts.URL, memberAuth, "/api/v1/messages", "anchor=newest&num_before=1&num_after=0&narrow="+`[{"operator":"bogus","operand":"x"}]`), "desc", ""},
		{"parameter combination", do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/users/me/subscriptions/muted_topics",
			body: formBody("stream_id", "1", "stream", "general", "topic", "t", "op", "add"), contentType: formType, auth: memberAuth}), "parameters", `"stream_id, stream"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkBad(t, badCase{}, tc.res)
			v, ok := tc.res.env[tc.key]
			if !ok || (tc.want != "" && canonical(v) != tc.want) {
				t.Errorf("%s %v, want %s: %s", tc.key, v, tc.want, tc.res)
			}
			if tc.key == "desc" && !strings.HasSuffix(tc.res.env["msg"].(string), v.(string)) {
				t.Errorf("desc %q is not the reason the message gives: %s", v, tc.res)
			}
		})
	}
}

// TestErrorMessagesDoNotDependOnMapOrder: where a request has two faults the fake names the
// same one every time, whatever order Go's maps iterate in.
func TestErrorMessagesDoNotDependOnMapOrder(t *testing.T) {
	ts := newServer(t)
	integConfig(t, ts.URL, "push_configured", "true")
	device := fmt.Sprint(requireSuccess(t, "device", post(t, ts.URL, memberAuth, "/api/v1/register_client_device"))["device_id"])
	push := integRegistration(device, "7", "t")
	for i := range push {
		if push[i] == "push_key" || push[i] == "token_id" {
			push[i+1] = "!"
		}
	}
	patch := func(path string, kv ...string) func() response {
		return func() response {
			return do(t, ts.URL, request{method: http.MethodPatch, path: path, body: formBody(kv...), contentType: formType, auth: ownerAuth})
		}
	}
	for name, send := range map[string]func() response{
		"push registration": func() response { return post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", push...) },
		"bot storage": func() response {
			return do(t, ts.URL, request{method: http.MethodPut, path: "/api/v1/bot_storage", body: formBody("storage", `{"b": 1, "a": 2, "c": 3}`), contentType: formType, auth: botAuth})
		},
		"group setting keys":  patch("/api/v1/realm", "can_resolve_topics_group", `{"new": {"y": 1, "x": 2}, "z": 1, "q": 2}`),
		"group setting lists": patch("/api/v1/realm", "can_resolve_topics_group", `{"direct_subgroups": "x", "direct_members": "y"}`),
		"profile data":        patch("/api/v1/users/4", "profile_data", `[{"b": 1, "a": 2, "id": 1, "value": "x"}]`),
	} {
		first := send()
		checkBad(t, badCase{}, first)
		for range 30 {
			if again := send(); again.env["msg"] != first.env["msg"] {
				t.Errorf("%s: %q, then %q", name, first.env["msg"], again.env["msg"])
				break
			}
		}
	}
}

// TestRealmSettingEvents: the message editing settings and the group settings are announced
// with update_dict, the move time limits with update and property/value, as on the real
// server; one event per changed setting.
func TestRealmSettingEvents(t *testing.T) {
	ts := newServer(t)
	evs := eventsOfType(regEvents(t, ts.URL, memberAuth, func() {
		requireSuccess(t, "patch", do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/realm", contentType: formType, auth: ownerAuth,
			body: formBody("allow_message_editing", "false", "message_content_edit_limit_seconds", "100",
				"move_messages_within_stream_limit_seconds", "200", "move_messages_between_streams_limit_seconds", "300")}))
	}), "realm")
	want := []string{
		`{"data":{"allow_message_editing":false},"op":"update_dict","property":"default","type":"realm"}`,
		`{"data":{"message_content_edit_limit_seconds":100},"op":"update_dict","property":"default","type":"realm"}`,
		`{"op":"update","property":"move_messages_between_streams_limit_seconds","type":"realm","value":300}`,
		`{"op":"update","property":"move_messages_within_stream_limit_seconds","type":"realm","value":200}`,
	}
	var got []string
	for _, ev := range evs {
		delete(ev, "id")
		got = append(got, canonical(ev))
	}
	if !slices.Equal(got, want) {
		t.Errorf("realm events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRegisterCapabilityForms: events whose form follows a client capability.
func TestRegisterCapabilityForms(t *testing.T) {
	ts := newServer(t)
	created := requireSuccess(t, "group", post(t, ts.URL, ownerAuth, "/api/v1/user_groups/create", "name", "doomed", "description", "d", "members", "[1]"))
	groupID := fmt.Sprint(created["group_id"])
	var evs [2][]map[string]any
	queues := [2]string{
		evRegister(t, ts.URL, memberAuth, "event_types", `["user_group", "message"]`),
		evRegister(t, ts.URL, memberAuth, "event_types", `["user_group", "message"]`,
			"client_capabilities", `{"notification_settings_null": true, "include_deactivated_groups": true, "empty_topic_name": true}`),
	}
	requireSuccess(t, "deactivate", post(t, ts.URL, ownerAuth, "/api/v1/user_groups/"+groupID+"/deactivate"))
	msgSend(t, ts.URL, ownerAuth, "", "in the empty topic")
	for i, q := range queues {
		evs[i] = evPoll(t, ts.URL, memberAuth, q, -1, true)
	}
	for i, want := range []struct{ op, topic string }{{"remove", "general chat"}, {"update", ""}} {
		groups, messages := eventsOfType(evs[i], "user_group"), eventsOfType(evs[i], "message")
		if len(groups) != 1 || groups[0]["op"] != want.op || len(messages) != 1 || messages[0]["message"].(map[string]any)["subject"] != want.topic {
			t.Errorf("queue %d: %v, want a group %s event and the topic %q", i, evs[i], want.op, want.topic)
		}
	}
}

// TestRegisterGravatarInUserEvents: a new user's avatar URL is null for client_gravatar
// queues (the default) and given to the others.
func TestRegisterGravatarInUserEvents(t *testing.T) {
	ts := newServer(t)
	for i, gravatar := range []string{"true", "false"} {
		evs := eventsOfType(regEvents(t, ts.URL, ownerAuth, func() {
			requireSuccess(t, "create", post(t, ts.URL, ownerAuth, "/api/v1/users",
				"email", fmt.Sprintf("new%d@chat.example.test", i), "password", "a-long-password", "full_name", "New"))
		}, "client_gravatar", gravatar), "realm_user")
		if len(evs) != 1 {
			t.Fatalf("realm_user events %v", evs)
		}
		if url := evs[0]["person"].(map[string]any)["avatar_url"]; (url == nil) != (gravatar == "true") {
			t.Errorf("client_gravatar %s: avatar_url %v", gravatar, url)
		}
	}
}

// TestRegisterLinkifierCapability: without linkifier_url_template a client gets an empty
// realm_linkifiers state and no realm_linkifiers events (feature level 176 on).
func TestRegisterLinkifierCapability(t *testing.T) {
	ts := newServer(t)
	var current any
	add := func() {
		current = requireSuccess(t, "linkifier", post(t, ts.URL, ownerAuth, "/api/v1/realm/filters", "pattern", "LC-(?P<id>[0-9]+)", "url_template", "https://lc.example/{id}"))["id"]
	}
	add()
	for _, tc := range []struct {
		caps string
		want int
	}{{`{"notification_settings_null": false}`, 0}, {`{"notification_settings_null": false, "linkifier_url_template": true}`, 1}} {
		state := requireSuccess(t, "state", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["realm_linkifiers"]`, "client_capabilities", tc.caps))
		evs := eventsOfType(regEvents(t, ts.URL, memberAuth, func() {
			requireSuccess(t, "remove", do(t, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/realm/filters/%v", current), auth: ownerAuth}))
			add()
		}, "client_capabilities", tc.caps), "realm_linkifiers")
		if list := state["realm_linkifiers"].([]any); len(list) != tc.want || len(evs) != 2*tc.want {
			t.Errorf("%s: state %v and %d events, want %d linkifiers and %d events", tc.caps, list, len(evs), tc.want, 2*tc.want)
		}
	}
}
