package api_test

// GET /messages as real clients call it: search results with their matches, the older
// use_first_unread_anchor, the anchors the real server echoes, raw HTML shown as text.

import (
	"fmt"
	"testing"
)

func TestGetMessagesAsClientsCallIt(t *testing.T) {
	ts := newServer(t)
	id := requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", "Lunch plans",
		"content", "lunch at <b>noon</b>"))["id"]
	fetch := func(query string) map[string]any {
		t.Helper()
		return requireSuccess(t, "GET /messages?"+query, get(t, ts.URL, memberAuth, "/api/v1/messages", query))
	}
	search := fetch(`anchor=newest&num_before=5&num_after=0&apply_markdown=false&narrow=[{"operator":"search","operand":"lunch"}]`)
	msgs := search["messages"].([]any)
	if len(msgs) != 1 {
		t.Fatalf("search results %v", msgs)
	}
	m := msgs[0].(map[string]any)
	if m["match_content"] != `<p><span class="highlight">lunch</span> at &lt;b&gt;noon&lt;/b&gt;</p>` ||
		m["match_subject"] != `<span class="highlight">Lunch</span> plans` || m["content"] != "lunch at <b>noon</b>" {
		t.Errorf("search result: match_content %q, match_subject %q, content %q", m["match_content"], m["match_subject"], m["content"])
	}
	if plain := fetch("anchor=newest&num_before=5&num_after=0")["messages"].([]any)[0].(map[string]any); plain["match_content"] != nil {
		t.Errorf("match_content outside a search: %v", plain)
	}

	for _, tc := range []struct{ query, anchor string }{
		{"anchor=newest&num_before=1&num_after=0", "10000000000000000"},
		{"anchor=oldest&num_before=0&num_after=1", "0"},
		{"anchor=-5&num_before=0&num_after=1", "0"},
		{"anchor=99999999999999999999&num_before=1&num_after=0", "10000000000000000"},
		{"use_first_unread_anchor=true&num_before=0&num_after=1", fmt.Sprint(id)},
		{"use_first_unread_anchor=true&anchor=junk&num_before=0&num_after=1", fmt.Sprint(id)},
	} {
		env := fetch(tc.query)
		if got := canonical(env["anchor"]); got != tc.anchor || len(env["messages"].([]any)) != 1 {
			t.Errorf("%s: anchor %s with %d messages, want %s with one", tc.query, got, len(env["messages"].([]any)), tc.anchor)
		}
	}
	requireSuccess(t, "read", post(t, ts.URL, memberAuth, "/api/v1/mark_all_as_read"))
	if env := fetch("anchor=first_unread&num_before=0&num_after=0"); canonical(env["anchor"]) != "10000000000000000" {
		t.Errorf("first_unread with nothing unread: anchor %v", env["anchor"])
	}
	wantRefusal(t, "no anchor", get(t, ts.URL, memberAuth, "/api/v1/messages", "num_before=0&num_after=1"), "Missing 'anchor' argument.")
}
