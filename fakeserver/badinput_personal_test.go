package fakeserver_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fixtures"
)

// personalSetUp gives the member an alert word, a status and a muted user (the bot, 6), so
// that a wrongful change to any of them shows.
func personalSetUp(t testing.TB, base string) {
	t.Helper()
	requireSuccess(t, "setup alert word", post(t, base, memberAuth, "/api/v1/users/me/alert_words", "alert_words", `["setupword"]`))
	requireSuccess(t, "setup status", post(t, base, memberAuth, "/api/v1/users/me/status", "status_text", "set up", "emoji_name", "heart"))
	requireSuccess(t, "setup muted user", post(t, base, memberAuth, "/api/v1/users/me/muted_users/6"))
	requireSuccess(t, "setup draft", post(t, base, memberAuth, "/api/v1/drafts", "drafts", setupDraft))
	requireSuccess(t, "setup saved snippet", post(t, base, memberAuth, "/api/v1/saved_snippets", "title", "setup", "content", "a setup snippet"))
	requireSuccess(t, "setup scheduled message", post(t, base, memberAuth, "/api/v1/scheduled_messages",
		"type", "stream", "to", "1", "topic", "setup", "content", "scheduled by the setup", "scheduled_delivery_timestamp", scheduledAt))
}

// scheduledAt is a day after the fixture's start: the bad-input fakes' clocks never reach it.
var scheduledAt = fmt.Sprint(defaultFixture.Realm.StartTime + 86400)

// setupDraft is the member's draft 1; draftOf is a draft object with the given type and to.
const setupDraft = `[{"type":"stream","to":[1],"topic":"setup","content":"a setup draft","timestamp":1767225600}]`

func draftOf(typ, to, topic, content string) string {
	return `{"type":"` + typ + `","to":` + to + `,"topic":"` + topic + `","content":"` + content + `"}`
}

// personalStateOf adds the member's alert words, everyone's statuses and the member's muted users.
func personalStateOf(t testing.TB, base string, state map[string]any) {
	t.Helper()
	member := post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["alert_words","user_status","muted_users","drafts","scheduled_messages","saved_snippets"]`)
	for _, key := range []string{"alert_words", "user_status", "muted_users", "drafts", "scheduled_messages", "saved_snippets"} {
		recordField(state, "member "+key, member, key)
	}
}

// personalRouteCases adds the bad-input cases of alert words, user status and muted users.
func personalRouteCases(add func(routeSpec)) {
	onPath := func(path string, r request) request { r.path = path; return r }
	add(routeSpec{method: "GET", pattern: "/api/v1/users/me/alert_words", path: "/api/v1/users/me/alert_words", role: fixtures.RoleMember})
	for _, method := range []string{"POST", "DELETE"} {
		words := routeSpec{method: method, pattern: "/api/v1/users/me/alert_words", path: "/api/v1/users/me/alert_words", role: fixtures.RoleMember,
			params: []param{{name: "alert_words", kind: kStrList, required: true}},
			valid:  []string{"alert_words", `["setupword","another"]`}}
		if method == "POST" {
			words.extra = []badCase{
				{"a word too long (all or nothing)", words.with("alert_words", `["fine","`+strings.Repeat("w", 101)+`"]`), badRequest("alert_words[1] is too long (limit: 100 characters)")},
			}
		}
		add(words)
	}

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
		{"unknown reaction type", status.with("reaction_type", "sticker"), badRequest("Invalid reaction_type")},
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

	mute := routeSpec{method: "POST", pattern: "/api/v1/users/me/muted_users/{muted_user_id:[0-9]+}", path: "/api/v1/users/me/muted_users/{id}",
		id: "5", notFound: "No such user", role: fixtures.RoleMember}
	mute.extra = []badCase{
		{"oneself", onPath("/api/v1/users/me/muted_users/4", mute.as(memberAuth)), badRequest("Cannot mute self")},
		{"a user muted already", onPath("/api/v1/users/me/muted_users/6", mute.as(memberAuth)), badRequest("User already muted")},
	}
	add(mute)
	unmute := routeSpec{method: "DELETE", pattern: "/api/v1/users/me/muted_users/{muted_user_id:[0-9]+}", path: "/api/v1/users/me/muted_users/{id}",
		id: "6", notFound: "No such user", role: fixtures.RoleMember}
	unmute.extra = []badCase{
		{"a user not muted", onPath("/api/v1/users/me/muted_users/5", unmute.as(memberAuth)), badRequest("User is not muted")},
		{"another user's mute", unmute.as(ownerAuth), badRequest("User is not muted")},
	}
	add(unmute)

	receipts := routeSpec{method: "GET", pattern: "/api/v1/messages/{message_id:[0-9]+}/read_receipts", path: "/api/v1/messages/{id}/read_receipts",
		id: "1", notFound: "Invalid message(s)", role: fixtures.RoleMember}
	add(receipts)

	// Drafts: the cases of a draft object, shared by POST /drafts (in a list) and PATCH.
	draftCases := func(rs routeSpec, param string, wrap func(string) string) []badCase {
		at := param
		if param == "drafts" {
			at = "drafts[0]"
		}
		with := func(obj string) request { return rs.with(param, wrap(obj)) }
		return []badCase{
			{"a draft not an object", with(`"x"`), badRequest(at + " is not a dict")},
			{"a draft without content", with(`{"type":"","to":[],"topic":""}`), badRequest(at + `["content"] is missing`)},
			{"an unknown key", with(`{"type":"","to":[],"topic":"","content":"x","colour":1}`), badRequest(`Argument "colour" at ` + at + " is unexpected")},
			{"an unknown type", with(draftOf("channel", "[1]", "t", "x")), badRequest("Invalid " + at + `["type"]`)},
			{"to not a list", with(draftOf("stream", "1", "t", "x")), badRequest(at + `["to"] is not a list`)},
			{"to of strings", with(draftOf("private", `["4"]`, "", "x")), badRequest(at + `["to"][0] is not an integer`)},
			{"content not a string", with(`{"type":"","to":[],"topic":"","content":5}`), badRequest(at + `["content"] is not a string`)},
			{"timestamp not a number", with(`{"type":"","to":[],"topic":"","content":"x","timestamp":"now"}`), badRequest(at + `["timestamp"] is not a number`)},
			{"blank content", with(draftOf("", "[]", "", "  ")), badRequest(at + `["content"] cannot be blank`)},
			{"a null byte in the content", with(draftOf("", "[]", "", `a\u0000b`)), badRequest("Message must not contain null bytes")},
			{"a negative timestamp", with(`{"type":"","to":[],"topic":"","content":"x","timestamp":-1}`), badRequest("Timestamp must not be negative.")},
			{"a negative fraction of a second", with(`{"type":"","to":[],"topic":"","content":"x","timestamp":-0.5}`), badRequest("Timestamp must not be negative.")},
			{"a channel draft to two channels", with(draftOf("stream", "[1,1]", "t", "x")), badRequest("Must specify exactly 1 channel ID for channel messages")},
			{"a channel draft to no channel", with(draftOf("stream", "[]", "t", "x")), badRequest("Must specify exactly 1 channel ID for channel messages")},
			{"an unknown channel", with(draftOf("stream", "[999]", "t", "x")), badRequest("Invalid channel ID")},
			{"a null byte in the topic", with(draftOf("stream", "[1]", `a\u0000b`, "x")), badRequest("Topic must not contain null bytes")},
			{"an unknown recipient", with(draftOf("private", "[4,999]", "", "x")), badRequest("Invalid user ID 999")},
		}
	}
	add(routeSpec{method: "GET", pattern: "/api/v1/drafts", path: "/api/v1/drafts", role: fixtures.RoleMember})
	create := routeSpec{method: "POST", pattern: "/api/v1/drafts", path: "/api/v1/drafts", role: fixtures.RoleMember,
		params: []param{{name: "drafts", kind: kJSONList, required: true}},
		valid:  []string{"drafts", "[" + draftOf("private", "[1]", "", "to the owner") + "]"}}
	create.extra = append(draftCases(create, "drafts", func(obj string) string { return "[" + obj + "]" }),
		badCase{"a good draft, then a bad one (all or nothing)", create.with("drafts", "["+draftOf("", "[]", "", "fine")+","+draftOf("stream", "[999]", "t", "x")+"]"), badRequest("Invalid channel ID")})
	add(create)
	draftNotFound := bad(404, "BAD_REQUEST", "Draft does not exist")
	edit := routeSpec{method: "PATCH", pattern: "/api/v1/drafts/{draft_id:[0-9]+}", path: "/api/v1/drafts/{id}", id: "1",
		notFound: "Draft does not exist", notFoundStatus: 404, role: fixtures.RoleMember,
		params: []param{{name: "draft", kind: kJSONDict, required: true}},
		valid:  []string{"draft", draftOf("stream", "[1]", "edited", "an edited draft")}}
	edit.extra = append(draftCases(edit, "draft", func(obj string) string { return obj }),
		badCase{"another user's draft", edit.as(ownerAuth), draftNotFound})
	add(edit)
	del := routeSpec{method: "DELETE", pattern: "/api/v1/drafts/{draft_id:[0-9]+}", path: "/api/v1/drafts/{id}", id: "1",
		notFound: "Draft does not exist", notFoundStatus: 404, role: fixtures.RoleMember}
	del.extra = []badCase{{"another user's draft", del.as(ownerAuth), draftNotFound}}
	add(del)

	// Scheduled messages.
	add(routeSpec{method: "GET", pattern: "/api/v1/scheduled_messages", path: "/api/v1/scheduled_messages", role: fixtures.RoleMember})
	schedule := routeSpec{method: "POST", pattern: "/api/v1/scheduled_messages", path: "/api/v1/scheduled_messages", role: fixtures.RoleMember,
		params: []param{
			{name: "type", kind: kEnum, required: true},
			{name: "to", required: true, oversizeFails: true}, // read by the type: its cases are below
			{name: "topic"},
			{name: "content", required: true},
			{name: "scheduled_delivery_timestamp", kind: kInt, required: true},
			{name: "read_by_sender", kind: kBool},
		},
		valid: []string{"type", "direct", "to", "[1]", "content", "later", "scheduled_delivery_timestamp", scheduledAt}}
	schedule.extra = []badCase{
		{"the time now", schedule.with("scheduled_delivery_timestamp", fmt.Sprint(defaultFixture.Realm.StartTime)), badRequest("Scheduled delivery time must be in the future.")},
		{"past time and no content (time first)", schedule.as(memberAuth, "scheduled_delivery_timestamp", "0", "content", " "), badRequest("Scheduled delivery time must be in the future.")},
		{"empty content", schedule.with("content", "  "), badRequest("Message must not be empty")},
		{"unknown recipient", schedule.with("to", "[999]"), badRequest("Invalid user ID 999")},
		{"recipients of strings", schedule.with("to", `["x"]`), badRequest("Recipient list may only contain user IDs")},
		{"recipients not JSON", schedule.with("to", "member"), badRequest("Invalid data type for recipients")},
		{"recipients an object", schedule.with("to", `{"id":1}`), badRequest("Invalid data type for recipients")},
		{"recipients one integer", schedule.with("to", "1"), badRequest("Invalid data type for recipients")},
		{"past time and bad recipients (time first)", schedule.as(memberAuth, "scheduled_delivery_timestamp", "0", "to", "x"), badRequest("Scheduled delivery time must be in the future.")},
		{"a channel message to two channels", schedule.as(memberAuth, "type", "stream", "to", "[1,1]", "topic", "t"), badRequest("Invalid data type for channel ID")},
		{"a channel message to an unknown channel", schedule.as(memberAuth, "type", "stream", "to", "999", "topic", "t"), bad(400, "STREAM_DOES_NOT_EXIST", "Channel with ID '999' does not exist")},
		{"a channel message without a topic", schedule.as(memberAuth, "type", "stream", "to", "1"), badRequest("Missing topic")},
	}
	add(schedule)
	scheduledNotFound := bad(404, "BAD_REQUEST", "Scheduled message does not exist")
	editScheduled := routeSpec{method: "PATCH", pattern: "/api/v1/scheduled_messages/{scheduled_message_id:[0-9]+}", path: "/api/v1/scheduled_messages/{id}",
		id: "1", notFound: "Scheduled message does not exist", notFoundStatus: 404, role: fixtures.RoleMember,
		params: []param{
			{name: "type", kind: kEnum},
			{name: "to", oversizeFails: true},
			{name: "topic"},
			{name: "content"},
			{name: "scheduled_delivery_timestamp", kind: kInt},
		},
		valid: []string{"content", "edited by the bad-input test"}}
	editScheduled.extra = []badCase{
		{"nothing to change", editScheduled.build(url.Values{}), badRequest("Nothing to change")},
		{"another user's", editScheduled.as(ownerAuth), scheduledNotFound},
		{"a time in the past", editScheduled.with("scheduled_delivery_timestamp", "5"), badRequest("Scheduled delivery time must be in the future.")},
		{"a type without recipients", editScheduled.with("type", "direct"), badRequest("Recipient required when updating type of scheduled message.")},
		{"the channel type without a topic", editScheduled.as(memberAuth, "type", "stream", "to", "1"), badRequest("Topic required when updating scheduled message type to stream.")},
		{"a past time for another user's message (time first)", editScheduled.as(ownerAuth, "scheduled_delivery_timestamp", "5"), badRequest("Scheduled delivery time must be in the future.")},
		{"a channel named by a list", editScheduled.with("to", "[1]"), badRequest("Invalid data type for channel ID")},
		{"an unknown channel", editScheduled.with("to", "999"), bad(400, "STREAM_DOES_NOT_EXIST", "Channel with ID '999' does not exist")},
		{"empty content", editScheduled.with("content", " "), badRequest("Message must not be empty")},
		{"a channel named by name", editScheduled.with("to", "general"), badRequest("Invalid data type for channel ID")},
	}
	add(editScheduled)
	delScheduled := routeSpec{method: "DELETE", pattern: "/api/v1/scheduled_messages/{scheduled_message_id:[0-9]+}", path: "/api/v1/scheduled_messages/{id}",
		id: "1", notFound: "Scheduled message does not exist", notFoundStatus: 404, role: fixtures.RoleMember}
	delScheduled.extra = []badCase{{"another user's", delScheduled.as(ownerAuth), scheduledNotFound}}
	add(delScheduled)

	// Saved snippets.
	add(routeSpec{method: "GET", pattern: "/api/v1/saved_snippets", path: "/api/v1/saved_snippets", role: fixtures.RoleMember})
	snippet := routeSpec{method: "POST", pattern: "/api/v1/saved_snippets", path: "/api/v1/saved_snippets", role: fixtures.RoleMember,
		params: []param{{name: "title", required: true, oversizeFails: true}, {name: "content", required: true, oversizeFails: true}},
		valid:  []string{"title", "greeting", "content", "Hello!"}}
	snippetCases := func(rs routeSpec) []badCase {
		return []badCase{
			{"a blank title", rs.with("title", "  "), badRequest("title cannot be blank")},
			{"a title too long (all or nothing)", rs.with("title", strings.Repeat("t", 61)), badRequest("title is too long (limit: 60 characters)")},
			{"blank content", rs.with("content", "\n"), badRequest("content cannot be blank")},
			{"content too long", rs.with("content", strings.Repeat("c", 10001)), badRequest("content is too long (limit: 10000 characters)")},
		}
	}
	snippet.extra = snippetCases(snippet)
	add(snippet)
	snippetNotFound := bad(404, "BAD_REQUEST", "Saved snippet does not exist.")
	editSnippet := routeSpec{method: "PATCH", pattern: "/api/v1/saved_snippets/{saved_snippet_id:[0-9]+}", path: "/api/v1/saved_snippets/{id}",
		id: "1", notFound: "Saved snippet does not exist.", notFoundStatus: 404, role: fixtures.RoleMember,
		params: []param{{name: "title", oversizeFails: true}, {name: "content", oversizeFails: true}},
		valid:  []string{"title", "renamed"}}
	editSnippet.extra = append(snippetCases(editSnippet), badCase{"another user's", editSnippet.as(ownerAuth), snippetNotFound})
	add(editSnippet)
	delSnippet := routeSpec{method: "DELETE", pattern: "/api/v1/saved_snippets/{saved_snippet_id:[0-9]+}", path: "/api/v1/saved_snippets/{id}",
		id: "1", notFound: "Saved snippet does not exist.", notFoundStatus: 404, role: fixtures.RoleMember}
	delSnippet.extra = []badCase{{"another user's", delSnippet.as(ownerAuth), snippetNotFound}}
	add(delSnippet)
}
