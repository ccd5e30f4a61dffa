package api_test

// DELETE /streams/{stream_id}: the real server's archiving, its events and its refusals.

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// archiveChannel sends DELETE /streams/{id} as auth.
func archiveChannel(t *testing.T, base, auth string, id int) response {
	t.Helper()
	return do(t, base, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/streams/%d", id), auth: auth})
}

// wantRefusal fails unless res is a 400 BAD_REQUEST envelope with msg.
func wantRefusal(t *testing.T, what string, res response, msg string) {
	t.Helper()
	if res.status != http.StatusBadRequest || res.env["code"] != "BAD_REQUEST" || res.env["msg"] != msg {
		t.Errorf("%s: got HTTP %d %s, want 400 BAD_REQUEST %q", what, res.status, res, msg)
	}
}

// newTestChannel creates a channel as auth with the given principals and returns its ID.
func newTestChannel(t *testing.T, base, auth, name string, inviteOnly bool, principals string) int {
	t.Helper()
	requireSuccess(t, "create "+name, post(t, base, auth, "/api/v1/users/me/subscriptions",
		"subscriptions", fmt.Sprintf(`[{"name":%q}]`, name), "invite_only", fmt.Sprint(inviteOnly), "principals", principals))
	env := requireSuccess(t, "look up "+name, get(t, base, auth, "/api/v1/get_stream_id", url.Values{"stream": {name}}.Encode()))
	return int(env["stream_id"].(float64))
}

func TestArchiveChannel(t *testing.T) {
	ts := newServer(t)
	owner, _ := defaultFixture.UserByRole("owner")
	member, _ := defaultFixture.UserByRole("member")
	id := newTestChannel(t, ts.URL, ownerAuth, "to-archive", false, fmt.Sprintf("[%d,%d]", owner.ID, member.ID))
	msg := requireSuccess(t, "send", post(t, ts.URL, memberAuth, "/api/v1/messages",
		"type", "stream", "to", fmt.Sprint(id), "topic", "t", "content", "before"))["id"]
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["stream","message"]`)

	wantRefusal(t, "a member archiving", archiveChannel(t, ts.URL, memberAuth, id), "You do not have permission to administer this channel.")
	requireSuccess(t, "the owner archiving", archiveChannel(t, ts.URL, ownerAuth, id))

	evs := evPoll(t, ts.URL, memberAuth, queue, -1, true)
	if len(evs) != 3 {
		t.Fatalf("events after archiving: %v, want is_archived update, delete, notice", evs)
	}
	if ev := evs[0]; ev["type"] != "stream" || ev["op"] != "update" || ev["property"] != "is_archived" ||
		ev["value"] != true || ev["stream_id"] != float64(id) || ev["name"] != "to-archive" {
		t.Errorf("first event %v, want the stream update of is_archived to true", ev)
	}
	if ev := evs[1]; ev["type"] != "stream" || ev["op"] != "delete" || canonical(ev["stream_ids"]) != fmt.Sprintf("[%d]", id) ||
		canonical(ev["streams"]) != fmt.Sprintf(`[{"stream_id":%d}]`, id) || ev["for_archiving"] != true {
		t.Errorf("second event %v, want the stream delete for archiving", ev)
	}
	notice, _ := evs[2]["message"].(map[string]any)
	if evs[2]["type"] != "message" || notice["subject"] != "channel events" || notice["content"] != "Channel to-archive has been archived." {
		t.Errorf("third event %v, want the archiving notice in topic channel events", evs[2])
	}
	if flags, _ := evs[2]["flags"].([]any); canonical(flags) != `["read"]` {
		t.Errorf("notice flags %v, want it read: archiving leaves nobody an unread message", evs[2]["flags"])
	}

	// What archiving keeps and what it stops.
	requireSuccess(t, "the old message", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/messages/%v", msg), ""))
	wantRefusal(t, "sending to it", post(t, ts.URL, memberAuth, "/api/v1/messages",
		"type", "stream", "to", fmt.Sprint(id), "topic", "t", "content", "after"), "Not authorized to send to channel 'to-archive'")
	wantRefusal(t, "looking it up by name", get(t, ts.URL, memberAuth, "/api/v1/get_stream_id", "stream=to-archive"), "Invalid channel name 'to-archive'")
	wantRefusal(t, "archiving it again", archiveChannel(t, ts.URL, ownerAuth, id), "Channel is already deactivated")
}

func TestArchiveChannelHidesPrivateChannels(t *testing.T) {
	ts := newServer(t)
	owner, _ := defaultFixture.UserByRole("owner")
	id := newTestChannel(t, ts.URL, ownerAuth, "private-to-archive", true, fmt.Sprintf("[%d]", owner.ID))
	// A member who cannot see the channel learns nothing about it.
	wantRefusal(t, "a member outside the channel", archiveChannel(t, ts.URL, memberAuth, id), "Invalid channel ID")
	// An administrator may archive a private channel without being subscribed.
	requireSuccess(t, "an administrator outside the channel", archiveChannel(t, ts.URL, adminAuth, id))
}
