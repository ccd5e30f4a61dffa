package api_test

// Alert words, user status and muted users: their answers, events, register state, and what
// they do to messages (has_alert_word; a muted sender's messages arrive read).

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fakeserver/openapi/check"
)

// newCheckedServer is a fake on the default fixture whose every exchange is checked against
// its OpenAPI description (replies and events); the test fails at its end on a violation.
func newCheckedServer(t *testing.T, opts ...fakeserver.Option) string {
	t.Helper()
	c, err := check.New()
	if err != nil {
		t.Fatal(err)
	}
	fake := fakeserver.New(opts...)
	srv := httptest.NewServer(c.Wrap(fake))
	t.Cleanup(func() {
		srv.Close()
		fake.Close()
		if r := c.Report(); !r.OK() || r.Exchanges == 0 {
			t.Errorf("replies against the OpenAPI description: %s", r)
		}
	})
	return srv.URL
}

// flagsOf are the requester's flags on a message.
func flagsOf(t *testing.T, base, auth string, id int) []any {
	t.Helper()
	return narrowedMessage(t, base, auth, id)["flags"].([]any)
}

func TestAlertWords(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["alert_words"]`)
	got := requireSuccess(t, "add", post(t, base, memberAuth, "/api/v1/users/me/alert_words", "alert_words", `["Lunch"," pizza ","","lunch"]`))
	if canonical(got["alert_words"]) != `["Lunch","pizza"]` {
		t.Errorf("after adding: %v (trimmed, blanks dropped, case-insensitive duplicates skipped)", got["alert_words"])
	}
	if evs := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "alert_words"); len(evs) != 1 || canonical(evs[0]["alert_words"]) != `["Lunch","pizza"]` {
		t.Errorf("alert_words events %v", evs)
	}

	for _, c := range []struct {
		sender, content string
		alert           bool
	}{
		{ownerAuth, "time for LUNCH!", true},
		{ownerAuth, "(pizza)", true},
		{ownerAuth, "lunchbox pizzas", false},
		{memberAuth, "my own lunch", false}, // the sender is not alerted by their own words
	} {
		id := msgSend(t, base, c.sender, "alerts", c.content)
		if got := slices.Contains(flagsOf(t, base, memberAuth, id), any("has_alert_word")); got != c.alert {
			t.Errorf("%q: has_alert_word %v, want %v", c.content, got, c.alert)
		}
	}
	if slices.Contains(flagsOf(t, base, ownerAuth, 1), any("has_alert_word")) {
		t.Errorf("the owner, without alert words, has has_alert_word")
	}

	left := requireSuccess(t, "remove", do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/me/alert_words", auth: memberAuth,
		body: formBody("alert_words", `["LUNCH","never added"]`), contentType: formType}))
	if canonical(left["alert_words"]) != `["pizza"]` {
		t.Errorf("after removing: %v", left["alert_words"])
	}
	listed := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/users/me/alert_words", ""))["alert_words"]
	state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["alert_words"]`))["alert_words"]
	if canonical(listed) != `["pizza"]` || canonical(state) != `["pizza"]` {
		t.Errorf("GET %v, register %v", listed, state)
	}
	if other := requireSuccess(t, "owner's", get(t, base, ownerAuth, "/api/v1/users/me/alert_words", ""))["alert_words"]; canonical(other) != "[]" {
		t.Errorf("the owner's alert words %v", other)
	}
}

func TestUserStatus(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, ownerAuth, "event_types", `["user_status"]`)
	requireSuccess(t, "set", post(t, base, memberAuth, "/api/v1/users/me/status", "status_text", "  in a meeting ", "emoji_name", "calendar_x", "emoji_code", "1f4c6", "reaction_type", "unicode_emoji"))
	status := func() string {
		return canonical(requireSuccess(t, "status", get(t, base, guestAuth, "/api/v1/users/4/status", ""))["status"])
	}
	if got := status(); got != `{"emoji_code":"1f4c6","emoji_name":"calendar_x","reaction_type":"unicode_emoji","status_text":"in a meeting"}` {
		t.Errorf("status %s", got)
	}
	evs := eventsOfType(evPoll(t, base, ownerAuth, queue, -1, true), "user_status")
	if len(evs) != 1 || evs[0]["user_id"] != float64(4) || evs[0]["status_text"] != "in a meeting" || evs[0]["emoji_code"] != "1f4c6" {
		t.Errorf("user_status events %v", evs)
	}
	if _, away := evs[0]["away"]; away {
		t.Errorf("the event names away, which the request did not: %v", evs[0])
	}
	// Clearing the emoji, and the text alone.
	requireSuccess(t, "clear emoji", post(t, base, memberAuth, "/api/v1/users/me/status", "emoji_name", ""))
	if got := status(); got != `{"status_text":"in a meeting"}` {
		t.Errorf("after clearing the emoji: %s", got)
	}
	requireSuccess(t, "away", post(t, base, memberAuth, "/api/v1/users/me/status", "away", "true", "status_text", ""))
	if got := status(); got != `{"away":true}` {
		t.Errorf("after clearing the text and going away: %s", got)
	}
	state := requireSuccess(t, "register", post(t, base, ownerAuth, "/api/v1/register", "fetch_event_types", `["user_status"]`))["user_status"]
	if canonical(state) != `{"4":{"away":true}}` {
		t.Errorf("register user_status %s", canonical(state))
	}
	if got := requireSuccess(t, "no status", get(t, base, memberAuth, "/api/v1/users/1/status", ""))["status"]; canonical(got) != "{}" {
		t.Errorf("a user without a status: %v", got)
	}
}

func TestMutedUsers(t *testing.T) {
	base := newCheckedServer(t)
	before := msgSend(t, base, ownerAuth, "muting", "unread before the mute")
	queue := evRegister(t, base, memberAuth, "event_types", `["muted_users","update_message_flags"]`)
	requireSuccess(t, "mute", post(t, base, memberAuth, "/api/v1/users/me/muted_users/1"))
	evs := evPoll(t, base, memberAuth, queue, -1, true)
	muted := eventsOfType(evs, "muted_users")
	want := fmt.Sprintf(`[{"id":1,"timestamp":%d}]`, defaultFixture.Realm.StartTime)
	if len(muted) != 1 || canonical(muted[0]["muted_users"]) != want {
		t.Errorf("muted_users events %v, want one with %s", muted, want)
	}
	// What muting hides: the muted user's messages are read, those before and those after.
	flags := eventsOfType(evs, "update_message_flags")
	if len(flags) != 1 || flags[0]["flag"] != "read" || !slices.Contains(flags[0]["messages"].([]any), any(float64(before))) {
		t.Errorf("update_message_flags events %v, want the earlier message marked read", flags)
	}
	after := msgSend(t, base, ownerAuth, "muting", "sent while muted")
	for _, id := range []int{before, after} {
		if !slices.Contains(flagsOf(t, base, memberAuth, id), any("read")) {
			t.Errorf("message %d from the muted user is unread", id)
		}
	}
	if slices.Contains(flagsOf(t, base, adminAuth, after), any("read")) {
		t.Errorf("the message is read for the administrator, who muted nobody")
	}
	state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["muted_users"]`))["muted_users"]
	if canonical(state) != want {
		t.Errorf("register muted_users %s", canonical(state))
	}
	requireSuccess(t, "unmute", do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/me/muted_users/1", auth: memberAuth}))
	if later := msgSend(t, base, ownerAuth, "muting", "after the unmute"); slices.Contains(flagsOf(t, base, memberAuth, later), any("read")) {
		t.Errorf("a message after the unmute arrives read")
	}
	state = requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["muted_users"]`))["muted_users"]
	if canonical(state) != "[]" {
		t.Errorf("register muted_users after the unmute %s", canonical(state))
	}
}

func TestDrafts(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["drafts"]`)
	created := requireSuccess(t, "create", post(t, base, memberAuth, "/api/v1/drafts", "drafts", `[
		{"type":"stream","to":[1],"topic":"plans","content":"see you  \n","timestamp":1767225700},
		{"type":"private","to":[4,1,1],"topic":"ignored","content":"hi"},
		{"type":"private","to":[4],"topic":"","content":"note to self","timestamp":1767225500.75},
		{"type":"private","to":[],"topic":"","content":"nobody yet","timestamp":1767225400}]`))
	if canonical(created["ids"]) != "[1,2,3,4]" {
		t.Fatalf("ids %v", created["ids"])
	}
	now := defaultFixture.Realm.StartTime
	want := fmt.Sprintf(`[`+
		`{"content":"nobody yet","id":4,"timestamp":1767225400,"to":[],"topic":"","type":""},`+
		`{"content":"note to self","id":3,"timestamp":1767225500,"to":[4],"topic":"","type":"private"},`+
		`{"content":"hi","id":2,"timestamp":%d,"to":[1],"topic":"","type":"private"},`+
		`{"content":"see you","id":1,"timestamp":1767225700,"to":[1],"topic":"plans","type":"stream"}]`, now)
	listed := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/drafts", ""))
	if canonical(listed["drafts"]) != want || listed["count"] != float64(4) {
		t.Errorf("GET /drafts: %v\nwant drafts %s", listed, want)
	}
	requireSuccess(t, "edit", msgPatch(t, base, memberAuth, "/api/v1/drafts/2", "draft", `{"type":"stream","to":[1],"topic":"t","content":"now public","timestamp":1767225800}`))
	requireSuccess(t, "delete", do(t, base, request{method: http.MethodDelete, path: "/api/v1/drafts/4", auth: memberAuth}))
	evs := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "drafts")
	if len(evs) != 3 || evs[0]["op"] != "add" || len(evs[0]["drafts"].([]any)) != 4 ||
		evs[1]["op"] != "update" || canonical(evs[1]["draft"]) != `{"content":"now public","id":2,"timestamp":1767225800,"to":[1],"topic":"t","type":"stream"}` ||
		evs[2]["op"] != "remove" || evs[2]["draft_id"] != float64(4) {
		t.Errorf("drafts events %v", evs)
	}
	state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["drafts"]`))["drafts"].([]any)
	var ids []any
	for _, d := range state {
		ids = append(ids, d.(map[string]any)["id"])
	}
	if canonical(ids) != "[3,1,2]" {
		t.Errorf("register drafts, in edit order: ids %v", ids)
	}
	if others := requireSuccess(t, "owner's", get(t, base, ownerAuth, "/api/v1/drafts", "")); others["count"] != float64(0) {
		t.Errorf("the owner sees drafts: %v", others)
	}
}

// Read receipts: those who read the message (the requester too), not its sender, and neither a
// user the requester muted nor one who muted the requester.
func TestReadReceipts(t *testing.T) {
	base := newCheckedServer(t)
	id := msgSend(t, base, ownerAuth, "receipts", "read me")
	receipts := func(auth string) string {
		t.Helper()
		return canonical(requireSuccess(t, "receipts", get(t, base, auth, fmt.Sprintf("/api/v1/messages/%d/read_receipts", id), ""))["user_ids"])
	}
	if got := receipts(ownerAuth); got != "[]" {
		t.Errorf("before anyone read it: %s (the sender is never listed)", got)
	}
	for _, auth := range []string{memberAuth, adminAuth, guestAuth} {
		requireSuccess(t, "read", post(t, base, auth, "/api/v1/messages/flags", "messages", fmt.Sprint("[", id, "]"), "op", "add", "flag", "read"))
	}
	if got := receipts(ownerAuth); got != "[2,4,5]" {
		t.Errorf("after the administrator, member and guest read it: %s", got)
	}
	requireSuccess(t, "the member mutes the guest", post(t, base, memberAuth, "/api/v1/users/me/muted_users/5"))
	requireSuccess(t, "the administrator mutes the member", post(t, base, adminAuth, "/api/v1/users/me/muted_users/4"))
	if got := receipts(memberAuth); got != "[4]" {
		t.Errorf("as the member, who muted the guest and is muted by the administrator: %s, want [4] (their own read counts)", got)
	}
	if got := receipts(ownerAuth); got != "[2,4,5]" {
		t.Errorf("as the owner, who has no mutes: %s", got)
	}
}

// An administrator sets another user's status (from 407), which everyone sees as the user's
// own; an administrator's bot may from 473 only.
func TestStatusSetByAdministrator(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["user_status"]`)
	requireSuccess(t, "set", post(t, base, adminAuth, "/api/v1/users/4/status", "status_text", "on leave", "emoji_name", "zzz"))
	if got := canonical(requireSuccess(t, "status", get(t, base, memberAuth, "/api/v1/users/4/status", ""))["status"]); got != `{"emoji_code":"1f4a4","emoji_name":"zzz","reaction_type":"unicode_emoji","status_text":"on leave"}` {
		t.Errorf("the member's status %s", got)
	}
	if evs := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "user_status"); len(evs) != 1 || evs[0]["user_id"] != float64(4) {
		t.Errorf("user_status events %v", evs)
	}
	// The fixture's bot is the owner's; make it an administrator's bot by role.
	for _, c := range []struct {
		level  int
		status int
	}{{realm.LevelAdminBotStatus - 1, http.StatusBadRequest}, {realm.LevelAdminBotStatus, http.StatusOK}} {
		b := newServerAt(t, c.level).URL
		requireSuccess(t, "make the bot an administrator", patch(t, b, ownerAuth, "/api/v1/users/6", "role", "200"))
		if res := post(t, b, botAuth, "/api/v1/users/4/status", "status_text", "set by a bot"); res.status != c.status {
			t.Errorf("an administrator bot at level %d: %s", c.level, res)
		}
	}
}

// Scheduled messages: listed soonest first, edited, cancelled, and sent as the user at their
// time on the fake's clock; one that can no longer be sent stays, failed.
func TestScheduledMessages(t *testing.T) {
	base := newCheckedServer(t)
	start := defaultFixture.Realm.StartTime
	queue := evRegister(t, base, memberAuth, "event_types", `["scheduled_messages","message"]`)
	schedule := func(kv ...string) float64 {
		t.Helper()
		return requireSuccess(t, "schedule", post(t, base, memberAuth, "/api/v1/scheduled_messages", kv...))["scheduled_message_id"].(float64)
	}
	channelMsg := schedule("type", "stream", "to", "1", "topic", "later", "content", "in a while  ", "scheduled_delivery_timestamp", fmt.Sprint(start+600))
	directMsg := schedule("type", "direct", "to", "[1,4]", "content", "**soon**", "scheduled_delivery_timestamp", fmt.Sprint(start+300))
	listed := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/scheduled_messages", ""))["scheduled_messages"]
	want := fmt.Sprintf(`[{"content":"**soon**","failed":false,"rendered_content":"<p><strong>soon</strong></p>","scheduled_delivery_timestamp":%d,"scheduled_message_id":2,"to":[1],"type":"private"},`+
		`{"content":"in a while","failed":false,"rendered_content":"<p>in a while</p>","scheduled_delivery_timestamp":%d,"scheduled_message_id":1,"to":1,"topic":"later","type":"stream"}]`, start+300, start+600)
	want = strings.NewReplacer("<", `\u003c`, ">", `\u003e`).Replace(want) // as canonical escapes HTML
	if canonical(listed) != want {
		t.Errorf("GET /scheduled_messages:\n%s\nwant\n%s", canonical(listed), want)
	}
	requireSuccess(t, "edit", msgPatch(t, base, memberAuth, fmt.Sprintf("/api/v1/scheduled_messages/%v", channelMsg), "content", "edited", "scheduled_delivery_timestamp", fmt.Sprint(start+900)))

	integAdvance(t, base, 300)
	evs := evPoll(t, base, memberAuth, queue, -1, true)
	scheduled, messages := eventsOfType(evs, "scheduled_messages"), eventsOfType(evs, "message")
	if len(scheduled) != 4 || scheduled[0]["op"] != "add" || scheduled[1]["op"] != "add" || scheduled[2]["op"] != "update" ||
		scheduled[3]["op"] != "remove" || scheduled[3]["scheduled_message_id"] != directMsg {
		t.Errorf("scheduled_messages events %v", scheduled)
	}
	if len(messages) != 1 || messages[0]["message"].(map[string]any)["sender_id"] != float64(4) || messages[0]["message"].(map[string]any)["content"] != "**soon**" {
		t.Errorf("message events at the first time: %v", messages)
	}
	left := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/scheduled_messages", ""))["scheduled_messages"].([]any)
	if len(left) != 1 || left[0].(map[string]any)["content"] != "edited" {
		t.Errorf("left after the first delivery: %v", left)
	}

	// The member leaves the channel's audience: the channel is archived, so the message fails.
	requireSuccess(t, "archive", do(t, base, request{method: http.MethodDelete, path: "/api/v1/streams/1", auth: ownerAuth}))
	integAdvance(t, base, 600)
	failed := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["scheduled_messages"]`))["scheduled_messages"].([]any)
	if len(failed) != 1 || failed[0].(map[string]any)["failed"] != true {
		t.Errorf("a message that cannot be sent: %v, want it kept, failed", failed)
	}
	requireSuccess(t, "delete", do(t, base, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/scheduled_messages/%v", channelMsg), auth: memberAuth}))
	if left := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/scheduled_messages", ""))["scheduled_messages"]; canonical(left) != "[]" {
		t.Errorf("after deleting: %v", left)
	}
}

// Saved snippets: trimmed, listed in ID order, edited (an empty edit changes nothing and says
// nothing), deleted, each change told to the user's clients.
func TestSavedSnippets(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["saved_snippets"]`)
	first := requireSuccess(t, "create", post(t, base, memberAuth, "/api/v1/saved_snippets", "title", " greeting ", "content", " Hello!\n"))["saved_snippet_id"]
	second := requireSuccess(t, "create", post(t, base, memberAuth, "/api/v1/saved_snippets", "title", "bye", "content", "Goodbye"))["saved_snippet_id"]
	requireSuccess(t, "edit", msgPatch(t, base, memberAuth, fmt.Sprintf("/api/v1/saved_snippets/%v", first), "content", "Hi there"))
	requireSuccess(t, "empty edit", msgPatch(t, base, memberAuth, fmt.Sprintf("/api/v1/saved_snippets/%v", first)))
	requireSuccess(t, "delete", do(t, base, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/saved_snippets/%v", second), auth: memberAuth}))
	at := defaultFixture.Realm.StartTime
	want := fmt.Sprintf(`[{"content":"Hi there","date_created":%d,"id":1,"title":"greeting"}]`, at)
	if got := canonical(requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/saved_snippets", ""))["saved_snippets"]); got != want {
		t.Errorf("GET /saved_snippets %s, want %s", got, want)
	}
	evs := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "saved_snippets")
	var ops []any
	for _, e := range evs {
		ops = append(ops, e["op"])
	}
	if canonical(ops) != `["add","add","update","remove"]` || evs[3]["saved_snippet_id"] != second {
		t.Errorf("saved_snippets events %v", evs)
	}
	state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["saved_snippets"]`))["saved_snippets"]
	if canonical(state) != want {
		t.Errorf("register saved_snippets %s", canonical(state))
	}
}
