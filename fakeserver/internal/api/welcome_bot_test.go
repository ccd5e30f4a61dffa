package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// POST /realm/test_welcome_bot_custom_message: Welcome Bot sends the administrator, and only
// them, a direct message carrying the custom text; the reply gives its ID.
func TestWelcomeBotCustomMessage(t *testing.T) {
	base := newCheckedServer(t)
	var id any
	memberQueue := evRegister(t, base, memberAuth, "event_types", `["message"]`)
	evs := eventsOfType(regEvents(t, base, adminAuth, func() {
		id = requireSuccess(t, "test", post(t, base, adminAuth, "/api/v1/realm/test_welcome_bot_custom_message",
			"welcome_message_custom_text", "Read #**general** first."))["message_id"]
	}, "event_types", `["message"]`), "message")
	if len(evs) != 1 || evs[0]["message"].(map[string]any)["id"] != id {
		t.Fatalf("the administrator's message events %v, want the one message %v", evs, id)
	}
	m := requireSuccess(t, "fetch", get(t, base, adminAuth, fmt.Sprintf("/api/v1/messages/%v", id), ""))
	msg := m["message"].(map[string]any)
	if msg["sender_email"] != "welcome-bot@zulip.com" || msg["sender_full_name"] != "Welcome Bot" || msg["type"] != "private" ||
		!strings.Contains(fmt.Sprint(m["raw_content"]), "Read #**general** first.") {
		t.Errorf("the message %v (raw %v)", msg, m["raw_content"])
	}
	if got := eventsOfType(evPoll(t, base, memberAuth, memberQueue, -1, true), "message"); len(got) != 0 {
		t.Errorf("a member received %v", got)
	}
	checkBad(t, badCase{want: principalAdmin}, post(t, base, memberAuth, "/api/v1/realm/test_welcome_bot_custom_message", "welcome_message_custom_text", "x"))
}
