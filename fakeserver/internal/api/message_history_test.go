package api_test

// GET /messages/{id}/history: every version of a message, oldest first, as the real server
// rebuilds it, and the realm's edit history policy.

import (
	"fmt"
	"testing"
)

func TestMessageHistory(t *testing.T) {
	ts := newServer(t)
	id := requireSuccess(t, "send", post(t, ts.URL, memberAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", "plans", "content", "see you at noon"))["id"]
	path := fmt.Sprintf("/api/v1/messages/%v", id)
	requireSuccess(t, "edit", patch(t, ts.URL, memberAuth, path, "content", "see you at one"))
	requireSuccess(t, "move", patch(t, ts.URL, memberAuth, path, "topic", "lunch"))

	history := requireSuccess(t, "history", get(t, ts.URL, memberAuth, path+"/history", ""))["message_history"].([]any)
	if len(history) != 3 {
		t.Fatalf("history %v, want the original, the edit and the move", history)
	}
	entry := func(i int) map[string]any { return history[i].(map[string]any) }
	if e := entry(0); e["user_id"] != float64(4) || e["topic"] != "plans" || e["content"] != "see you at noon" ||
		e["rendered_content"] != "<p>see you at noon</p>" || e["prev_content"] != nil {
		t.Errorf("original %v", e)
	}
	if e := entry(1); e["content"] != "see you at one" || e["prev_content"] != "see you at noon" || e["topic"] != "plans" ||
		e["content_html_diff"] != `<p>see you at <span class="highlight_text_deleted">noon</span><span class="highlight_text_inserted">one</span></p>` {
		t.Errorf("edit %v", e)
	}
	if e := entry(2); e["topic"] != "lunch" || e["prev_topic"] != "plans" || e["content"] != "see you at one" || e["prev_content"] != nil {
		t.Errorf("move %v", e)
	}

	requireSuccess(t, "moves only", patch(t, ts.URL, ownerAuth, "/api/v1/realm", "message_edit_history_visibility_policy", `"moves"`))
	history = requireSuccess(t, "history of moves", get(t, ts.URL, memberAuth, path+"/history", ""))["message_history"].([]any)
	if len(history) != 2 || entry(0)["content"] != "see you at one" || entry(1)["prev_topic"] != "plans" {
		t.Errorf("moves-only history %v, want the original and the move, with the current content", history)
	}
	requireSuccess(t, "no history", patch(t, ts.URL, ownerAuth, "/api/v1/realm", "message_edit_history_visibility_policy", `"none"`))
	wantRefusal(t, "history disabled", get(t, ts.URL, memberAuth, path+"/history", ""), "Message edit history is disabled in this organization")
}

func TestRenderMessage(t *testing.T) {
	ts := newServer(t)
	env := requireSuccess(t, "render", post(t, ts.URL, memberAuth, "/api/v1/messages/render", "content", "**bold** <b>raw</b>"))
	sent := requireSuccess(t, "send", post(t, ts.URL, memberAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", "t", "content", "**bold** <b>raw</b>"))
	msg := requireSuccess(t, "fetch", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/messages/%v", sent["id"]), "apply_markdown=true"))["message"].(map[string]any)
	if env["rendered"] != msg["content"] || env["rendered"] == "" {
		t.Errorf("rendered %q, want what sending the same content gives: %q", env["rendered"], msg["content"])
	}
}
