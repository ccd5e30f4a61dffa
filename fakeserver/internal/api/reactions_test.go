package api_test

// DELETE /messages/{id}/reactions: by code or by name, the event the real server sends, and
// only the requester's own reaction.

import (
	"net/http"
	"testing"
)

func TestRemoveReaction(t *testing.T) {
	ts := newServer(t)
	id := requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", "t", "content", "react"))["id"]
	path := "/api/v1/messages/" + canonical(id) + "/reactions"
	for _, auth := range []string{memberAuth, ownerAuth} {
		requireSuccess(t, "react", post(t, ts.URL, auth, path, "emoji_name", "tada"))
	}
	queue := evRegister(t, ts.URL, ownerAuth, "event_types", `["reaction"]`)
	remove := func(kv ...string) response {
		return do(t, ts.URL, request{method: http.MethodDelete, path: path, auth: memberAuth, body: formBody(kv...), contentType: formType})
	}
	requireSuccess(t, "remove by code", remove("emoji_code", "1f389"))
	wantRefusal(t, "remove again by name", remove("emoji_name", "tada"), "Reaction doesn't exist.")

	msg := requireSuccess(t, "fetch", get(t, ts.URL, ownerAuth, "/api/v1/messages/"+canonical(id), ""))["message"].(map[string]any)
	if got := canonical(msg["reactions"]); got != `[{"emoji_code":"1f389","emoji_name":"tada","reaction_type":"unicode_emoji","user_id":1}]` {
		t.Errorf("reactions left: %s, want only the owner's", got)
	}
	evs := evPoll(t, ts.URL, ownerAuth, queue, -1, true)
	if len(evs) != 1 {
		t.Fatalf("events %v, want one reaction remove", evs)
	}
	ev := evs[0]
	if ev["type"] != "reaction" || ev["op"] != "remove" || ev["user_id"] != float64(4) || ev["emoji_name"] != "tada" ||
		ev["emoji_code"] != "1f389" || ev["reaction_type"] != "unicode_emoji" || ev["message_id"] != id ||
		canonical(ev["user"]) != `{"email":"member@chat.example.test","full_name":"Max Member","user_id":4}` {
		t.Errorf("event %v", ev)
	}
}
