package api_test

// POST /mark_stream_as_read and /mark_topic_as_read: which messages become read, and the
// flag events the real server sends.

import (
	"fmt"
	"testing"
)

// unreadIDs lists the IDs of auth's unread messages.
func unreadIDs(t *testing.T, base, auth string) string {
	t.Helper()
	env := requireSuccess(t, "unread messages", get(t, base, auth, "/api/v1/messages",
		`anchor=oldest&num_before=0&num_after=100&narrow=[{"operator":"is","operand":"unread"}]`))
	var ids []int
	for _, m := range env["messages"].([]any) {
		ids = append(ids, int(m.(map[string]any)["id"].(float64)))
	}
	return fmt.Sprint(ids)
}

func TestMarkChannelAndTopicAsRead(t *testing.T) {
	ts := newServer(t)
	other := newTestChannel(t, ts.URL, ownerAuth, "elsewhere", false, "[1,4]")
	sendTo := func(channel, topic string) int {
		env := requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", channel, "topic", topic, "content", "hello"))
		return int(env["id"].(float64))
	}
	a, b, c, d := sendTo("general", "one"), sendTo("general", "One"), sendTo("general", "two"), sendTo("elsewhere", "one")
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["update_message_flags"]`)

	requireSuccess(t, "mark topic", post(t, ts.URL, memberAuth, "/api/v1/mark_topic_as_read", "stream_id", "1", "topic_name", "ONE"))
	if got, want := unreadIDs(t, ts.URL, memberAuth), fmt.Sprint([]int{c, d}); got != want {
		t.Errorf("unread after marking general > one: %s, want %s (topics match case-insensitively)", got, want)
	}
	requireSuccess(t, "mark channel", post(t, ts.URL, memberAuth, "/api/v1/mark_stream_as_read", "stream_id", fmt.Sprint(other)))
	if got, want := unreadIDs(t, ts.URL, memberAuth), fmt.Sprint([]int{c}); got != want {
		t.Errorf("unread after marking elsewhere: %s, want %s", got, want)
	}
	requireSuccess(t, "mark a read channel", post(t, ts.URL, memberAuth, "/api/v1/mark_stream_as_read", "stream_id", fmt.Sprint(other)))

	evs := evPoll(t, ts.URL, memberAuth, queue, -1, true)
	if len(evs) != 2 || canonical(evs[0]["messages"]) != fmt.Sprintf("[%d,%d]", a, b) || canonical(evs[1]["messages"]) != fmt.Sprintf("[%d]", d) {
		t.Fatalf("events %v, want one read flag event per request that changed something", evs)
	}
	if ev := evs[0]; ev["op"] != "add" || ev["flag"] != "read" || ev["all"] != false {
		t.Errorf("event %v, want op add of flag read", ev)
	}
	wantRefusal(t, "a guest marking a channel it cannot see", post(t, ts.URL, guestAuth, "/api/v1/mark_stream_as_read", "stream_id", fmt.Sprint(other)), "Invalid channel ID")
}

func TestFlagsForNarrow(t *testing.T) {
	ts := newServer(t)
	var ids []int
	for _, topic := range []string{"a", "b", "a"} {
		env := requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", topic, "content", "hi"))
		ids = append(ids, int(env["id"].(float64)))
	}
	narrowA := `[{"operator":"channel","operand":"general"},{"operator":"topic","operand":"a"}]`
	env := requireSuccess(t, "read topic a", post(t, ts.URL, memberAuth, "/api/v1/messages/flags/narrow",
		"anchor", "oldest", "num_before", "0", "num_after", "1000", "narrow", narrowA, "op", "add", "flag", "read"))
	if env["processed_count"] != float64(2) || env["updated_count"] != float64(2) || env["first_processed_id"] != float64(ids[0]) ||
		env["last_processed_id"] != float64(ids[2]) || env["found_oldest"] != true || env["found_newest"] != true {
		t.Errorf("reply %v", env)
	}
	if got, want := unreadIDs(t, ts.URL, memberAuth), fmt.Sprint([]int{ids[1]}); got != want {
		t.Errorf("unread %s, want %s", got, want)
	}
	env = requireSuccess(t, "again", post(t, ts.URL, memberAuth, "/api/v1/messages/flags/narrow",
		"anchor", "newest", "num_before", "1", "num_after", "0", "narrow", narrowA, "op", "add", "flag", "read"))
	if env["processed_count"] != float64(1) || env["updated_count"] != float64(0) || env["found_oldest"] != false {
		t.Errorf("second reply %v, want the newest one processed and none updated", env)
	}
	env = requireSuccess(t, "empty narrow window", post(t, ts.URL, memberAuth, "/api/v1/messages/flags/narrow",
		"anchor", "newest", "num_before", "0", "num_after", "0", "include_anchor", "false", "narrow", narrowA, "op", "add", "flag", "read"))
	if env["processed_count"] != float64(0) || env["first_processed_id"] != nil {
		t.Errorf("empty window reply %v", env)
	}
}

// TestMarkingUnreadSkipsUnsubscribedChannels: unread messages are only ever in subscribed
// channels; marking unread elsewhere is skipped, and the channels are named.
func TestMarkingUnreadSkipsUnsubscribedChannels(t *testing.T) {
	ts := newServer(t)
	other := newTestChannel(t, ts.URL, ownerAuth, "left", false, "[1,4]")
	inGeneral := requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", "t", "content", "a"))["id"]
	inOther := requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", "left", "topic", "t", "content", "b"))["id"]
	requireSuccess(t, "read all", post(t, ts.URL, memberAuth, "/api/v1/mark_all_as_read"))
	requireSuccess(t, "leave", unsubscribe(t, ts.URL, memberAuth, "subscriptions", `["left"]`))

	env := requireSuccess(t, "mark unread", post(t, ts.URL, memberAuth, "/api/v1/messages/flags", "messages", fmt.Sprintf("[%v,%v]", inGeneral, inOther), "op", "remove", "flag", "read"))
	if canonical(env["ignored_because_not_subscribed_channels"]) != fmt.Sprintf("[%d]", other) {
		t.Errorf("reply %v, want the left channel ignored", env)
	}
	if got, want := unreadIDs(t, ts.URL, memberAuth), fmt.Sprint([]any{inGeneral}); got != want {
		t.Errorf("unread %s, want only the message in general", got)
	}
	env = requireSuccess(t, "narrow", post(t, ts.URL, memberAuth, "/api/v1/messages/flags/narrow",
		"anchor", "oldest", "num_before", "0", "num_after", "100", "narrow", `[{"operator":"channel","operand":"left"}]`, "op", "remove", "flag", "read"))
	if env["updated_count"] != float64(0) || canonical(env["ignored_because_not_subscribed_channels"]) != fmt.Sprintf("[%d]", other) {
		t.Errorf("narrow reply %v", env)
	}
	if env := requireSuccess(t, "star", post(t, ts.URL, memberAuth, "/api/v1/messages/flags", "messages", fmt.Sprintf("[%v]", inOther), "op", "add", "flag", "starred")); env["ignored_because_not_subscribed_channels"] != nil {
		t.Errorf("the field outside marking unread: %v", env)
	}
}
