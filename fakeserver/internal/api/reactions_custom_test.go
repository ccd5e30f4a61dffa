package api_test

// Custom emoji in reactions and in content: a reaction names one by its ID, a deactivated
// one keeps its reactions and may gain votes but no new reaction, and :name: renders as the
// emoji's image while it is active.

import (
	"net/http"
	"testing"
)

func TestCustomEmojiReactions(t *testing.T) {
	base := newCheckedServer(t)
	requireSuccess(t, "upload", uploadEmoji(t, base, memberAuth, "party_time", emojiPNG))
	queue := evRegister(t, base, ownerAuth, "event_types", `["reaction"]`)
	send := func(content string) any {
		return requireSuccess(t, "send", post(t, base, ownerAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", "custom emoji", "content", content))["id"]
	}
	id := send("hi :party_time: :tada: :zulip: :nope:")
	path := "/api/v1/messages/" + canonical(id) + "/reactions"
	message := func() map[string]any {
		return requireSuccess(t, "fetch", get(t, base, ownerAuth, "/api/v1/messages/"+canonical(id), ""))["message"].(map[string]any)
	}
	if got, want := message()["content"], `<p>hi <img alt=":party_time:" class="emoji" src="/user_avatars/1/emoji/images/1.png" title="party time"> `+
		`<span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span> `+
		`<img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"> :nope:</p>`; got != want {
		t.Errorf("content:\n%v\nwant\n%v", got, want)
	}

	// By name alone the custom emoji is found; by its ID and type, the same reaction.
	requireSuccess(t, "by name", post(t, base, memberAuth, path, "emoji_name", "party_time"))
	requireSuccess(t, "by ID", post(t, base, ownerAuth, path, "emoji_name", "party_time", "emoji_code", "1", "reaction_type", "realm_emoji"))
	const reacted = `[{"emoji_code":"1","emoji_name":"party_time","reaction_type":"realm_emoji","user_id":4},` +
		`{"emoji_code":"1","emoji_name":"party_time","reaction_type":"realm_emoji","user_id":1}]`
	if got := canonical(message()["reactions"]); got != reacted {
		t.Errorf("reactions %s\nwant %s", got, reacted)
	}

	// Deactivated: the reactions stay, a vote for them is taken, a new reaction is refused.
	requireSuccess(t, "deactivate", do(t, base, request{method: http.MethodDelete, path: "/api/v1/realm/emoji/party_time", auth: adminAuth}))
	if got := canonical(message()["reactions"]); got != reacted {
		t.Errorf("reactions after deactivation %s\nwant %s", got, reacted)
	}
	requireSuccess(t, "vote", post(t, base, adminAuth, path, "emoji_name", "party_time", "emoji_code", "1", "reaction_type", "realm_emoji"))
	unreact := func(auth string) {
		requireSuccess(t, "remove", do(t, base, request{method: http.MethodDelete, path: path, auth: auth,
			body: formBody("emoji_code", "1", "reaction_type", "realm_emoji"), contentType: formType}))
	}
	for _, auth := range []string{memberAuth, ownerAuth, adminAuth} {
		unreact(auth)
	}
	wantRefusal(t, "new reaction", post(t, base, memberAuth, path, "emoji_name", "party_time", "emoji_code", "1", "reaction_type", "realm_emoji"),
		"This custom emoji has been deactivated.")
	wantRefusal(t, "by name", post(t, base, memberAuth, path, "emoji_name", "party_time"), "Emoji 'party_time' does not exist")

	evs := eventsOfType(evPoll(t, base, ownerAuth, queue, -1, true), "reaction")
	var ops []string
	for _, ev := range evs {
		if ev["emoji_code"] != "1" || ev["emoji_name"] != "party_time" || ev["reaction_type"] != "realm_emoji" {
			t.Errorf("event %v", ev)
		}
		ops = append(ops, ev["op"].(string))
	}
	if canonical(ops) != `["add","add","add","remove","remove","remove"]` {
		t.Errorf("reaction events %v", ops)
	}

	// A deactivated emoji's name is text; taken again, it is the new emoji's image.
	if got := requireSuccess(t, "render", post(t, base, ownerAuth, "/api/v1/messages/render", "content", ":party_time:"))["rendered"]; got != "<p>:party_time:</p>" {
		t.Errorf("a deactivated emoji rendered %v", got)
	}
	requireSuccess(t, "upload again", uploadEmoji(t, base, memberAuth, "party_time", emojiPNG))
	if got := requireSuccess(t, "render", post(t, base, ownerAuth, "/api/v1/messages/render", "content", "**:party_time:**"))["rendered"]; got !=
		`<p><strong><img alt=":party_time:" class="emoji" src="/user_avatars/1/emoji/images/2.png" title="party time"></strong></p>` {
		t.Errorf("the new emoji rendered %v", got)
	}
}
