package api_test

import (
	"fmt"
	"testing"
)

// personalSetUp gives the member an alert word, a status and a muted user (the bot, 6), so
// that a wrongful change to any of them shows, and an email change to confirm.
func personalSetUp(t testing.TB, base string) {
	t.Helper()
	requireSuccess(t, "setup alert word", post(t, base, memberAuth, "/api/v1/users/me/alert_words", "alert_words", `["setupword"]`))
	requireSuccess(t, "setup status", post(t, base, memberAuth, "/api/v1/users/me/status", "status_text", "set up", "emoji_name", "heart"))
	requireSuccess(t, "setup muted user", post(t, base, memberAuth, "/api/v1/users/me/muted_users/6"))
	requireSuccess(t, "setup email change", patch(t, base, memberAuth, "/api/v1/settings", "email", "member-moved@chat.example.test"))
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
