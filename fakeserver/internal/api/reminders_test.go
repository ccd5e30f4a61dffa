package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestReminderIsDeliveredByTheNotificationBotAtItsTime(t *testing.T) {
	ts := newServer(t)
	target := integSend(t, ts.URL, ownerAuth, "the **message** to remember")
	at := defaultFixture.Realm.StartTime + 600
	env := requireSuccess(t, "reminder", post(t, ts.URL, memberAuth, "/api/v1/reminders",
		"message_id", fmt.Sprint(target), "scheduled_delivery_timestamp", fmt.Sprint(at), "note", "  call back\n"))
	reminderID := env["reminder_id"]

	listed := requireSuccess(t, "reminders", get(t, ts.URL, memberAuth, "/api/v1/reminders", ""))["reminders"].([]any)
	r := listed[0].(map[string]any)
	if len(listed) != 1 || r["reminder_id"] != reminderID || r["message_id"] != float64(target) || r["note"] != "  call back" ||
		r["scheduled_delivery_timestamp"] != float64(at) || r["type"] != "private" || r["failed"] != false {
		t.Errorf("GET /reminders: %v", listed)
	}
	state := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["reminders"]`))
	if got, _ := state["reminders"].([]any); len(got) != 1 {
		t.Errorf("registration state reminders: %v", state["reminders"])
	}

	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["message"]`)
	integAdvance(t, ts.URL, 599)
	if evs := evPoll(t, ts.URL, memberAuth, queue, -1, true); len(evs) != 0 {
		t.Fatalf("delivered early: %v", evs)
	}
	integAdvance(t, ts.URL, 1)
	evs := evPoll(t, ts.URL, memberAuth, queue, -1, true)
	if len(evs) != 1 {
		t.Fatalf("events at the scheduled time: %v", evs)
	}
	m := evs[0]["message"].(map[string]any)
	content, _ := m["content"].(string)
	if m["sender_full_name"] != "Notification Bot" || m["type"] != "private" || m["timestamp"] != float64(at) ||
		!strings.Contains(content, "call back") || !strings.Contains(content, fmt.Sprintf("/near/%d", target)) ||
		!strings.Contains(content, "the **message** to remember") {
		t.Errorf("reminder message: %v", m)
	}
	got := requireSuccess(t, "fetch", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/messages/%v", m["id"]), "apply_markdown=false"))
	raw := got["raw_content"].(string)
	if !strings.HasPrefix(raw, "You requested a reminder for [#general > files @ 💬](/#narrow/channel/1-general/topic/files/near/") ||
		!strings.Contains(raw, " Note:\n >   call back\n\n@_**Olivia Owner|1** [said]") {
		t.Errorf("reminder content: %q", raw)
	}
	if left := requireSuccess(t, "reminders", get(t, ts.URL, memberAuth, "/api/v1/reminders", ""))["reminders"].([]any); len(left) != 0 {
		t.Errorf("a delivered reminder is still listed: %v", left)
	}
}

func TestReminderOfADeletedMessageFails(t *testing.T) {
	ts := newServer(t)
	target := integSend(t, ts.URL, memberAuth, "soon gone")
	requireSuccess(t, "reminder", post(t, ts.URL, memberAuth, "/api/v1/reminders",
		"message_id", fmt.Sprint(target), "scheduled_delivery_timestamp", fmt.Sprint(defaultFixture.Realm.StartTime+60)))
	requireSuccess(t, "delete", do(t, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/messages/%d", target), auth: adminAuth}))
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["message"]`)
	integAdvance(t, ts.URL, 60)
	if evs := evPoll(t, ts.URL, memberAuth, queue, -1, true); len(evs) != 0 {
		t.Errorf("a reminder of a deleted message was delivered: %v", evs)
	}
	listed := requireSuccess(t, "reminders", get(t, ts.URL, memberAuth, "/api/v1/reminders", ""))["reminders"].([]any)
	if len(listed) != 1 || listed[0].(map[string]any)["failed"] != true {
		t.Errorf("GET /reminders: %v; want the reminder, failed", listed)
	}
}
