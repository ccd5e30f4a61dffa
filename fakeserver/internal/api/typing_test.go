package api_test

// POST /typing: the typing events of direct and channel composing, to whom they go.

import "testing"

func TestTypingNotifications(t *testing.T) {
	ts := newServer(t)
	ownerQueue := evRegister(t, ts.URL, ownerAuth, "event_types", `["typing"]`, "client_capabilities", `{"stream_typing_notifications":true}`)
	adminQueue := evRegister(t, ts.URL, adminAuth, "event_types", `["typing"]`) // without the capability
	requireSuccess(t, "direct start", post(t, ts.URL, memberAuth, "/api/v1/typing", "op", "start", "to", "[1]"))
	requireSuccess(t, "channel stop", post(t, ts.URL, memberAuth, "/api/v1/typing", "type", "channel", "op", "stop", "stream_id", "1", "topic", "lunch"))

	evs := evPoll(t, ts.URL, ownerAuth, ownerQueue, -1, true)
	if len(evs) != 2 {
		t.Fatalf("owner's events %v, want the direct and the channel typing", evs)
	}
	member := `{"email":"member@chat.example.test","user_id":4}`
	if ev := evs[0]; ev["op"] != "start" || ev["message_type"] != "direct" || canonical(ev["sender"]) != member ||
		canonical(ev["recipients"]) != `[{"email":"owner@chat.example.test","user_id":1},`+member+`]` {
		t.Errorf("direct typing event %v", ev)
	}
	if ev := evs[1]; ev["op"] != "stop" || ev["message_type"] != "stream" || ev["stream_id"] != float64(1) || ev["topic"] != "lunch" || canonical(ev["sender"]) != member {
		t.Errorf("channel typing event %v", ev)
	}
	if evs := evPoll(t, ts.URL, adminAuth, adminQueue, -1, true); len(evs) != 0 {
		t.Errorf("a client without stream_typing_notifications, outside the direct conversation, got %v", evs)
	}
}
