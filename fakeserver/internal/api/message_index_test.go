package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
)

// TestTopicIndexFollowsChanges: topic listing and a narrowed fetch by channel and topic read
// the topic index; after sends, moves between topics (in other case too), deletions and a
// topic deletion they must agree with what a scan of every message finds (a narrow by the
// topic alone, which the index does not serve, on a topic no other channel has).
func TestTopicIndexFollowsChanges(t *testing.T) {
	ts := newServer(t)
	ids := map[string][]int{}
	for i := range 12 {
		topic := []string{"alpha", "beta", "gamma"}[i%3]
		ids[topic] = append(ids[topic], msgSend(t, ts.URL, ownerAuth, topic, fmt.Sprint("message ", i)))
	}
	move := func(id int, kv ...string) {
		t.Helper()
		requireSuccess(t, "move", do(t, ts.URL, request{method: http.MethodPatch, path: fmt.Sprintf("/api/v1/messages/%d", id),
			auth: ownerAuth, body: formBody(kv...), contentType: formType}))
	}
	move(ids["alpha"][2], "topic", "Beta", "propagate_mode", "change_later") // the last two alphas join beta
	move(ids["gamma"][0], "topic", "delta", "propagate_mode", "change_one")
	requireSuccess(t, "delete", do(t, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/messages/%d", ids["beta"][1]), auth: ownerAuth}))
	channel := requireSuccess(t, "channel id", get(t, ts.URL, ownerAuth, "/api/v1/get_stream_id", "stream=general"))["stream_id"].(float64)
	requireSuccess(t, "delete topic", post(t, ts.URL, ownerAuth, fmt.Sprintf("/api/v1/streams/%d/delete_topic", int(channel)), "topic_name", "gamma"))

	fetch := func(narrow string, anchor string, before, after int) []int {
		t.Helper()
		q := url.Values{"narrow": {narrow}, "anchor": {anchor}, "num_before": {fmt.Sprint(before)}, "num_after": {fmt.Sprint(after)}}
		var got []int
		for _, m := range requireSuccess(t, "fetch", get(t, ts.URL, ownerAuth, "/api/v1/messages", q.Encode()))["messages"].([]any) {
			got = append(got, int(m.(map[string]any)["id"].(float64)))
		}
		return got
	}
	for _, topic := range []string{"alpha", "BETA", "gamma", "delta"} {
		scan := fetch(fmt.Sprintf(`[["topic",%q]]`, topic), "newest", 100, 0)
		for _, w := range []struct {
			anchor        string
			before, after int
		}{{"newest", 100, 0}, {"newest", 2, 0}, {"oldest", 0, 2}, {"oldest", 0, 100}} {
			indexed := fetch(fmt.Sprintf(`[["channel","general"],["topic",%q]]`, topic), w.anchor, w.before, w.after)
			want := scan
			switch {
			case w.anchor == "newest" && len(want) > w.before:
				want = want[len(want)-w.before:]
			case w.anchor == "oldest" && len(want) > w.after:
				want = want[:w.after]
			}
			if !slices.Equal(indexed, want) {
				t.Errorf("topic %s, anchor %s (%d before, %d after): the index gives %v, a scan %v", topic, w.anchor, w.before, w.after, indexed, want)
			}
		}
	}
	var listed []string
	for _, tp := range requireSuccess(t, "topics", get(t, ts.URL, ownerAuth, fmt.Sprintf("/api/v1/users/me/%d/topics", int(channel)), ""))["topics"].([]any) {
		listed = append(listed, tp.(map[string]any)["name"].(string))
	}
	for _, want := range []string{"alpha", "Beta", "delta"} {
		if !slices.Contains(listed, want) {
			t.Errorf("topics %v lack %s", listed, want)
		}
	}
	if slices.Contains(listed, "gamma") || slices.Contains(listed, "beta") {
		t.Errorf("topics %v still list a deleted topic or an old spelling", listed)
	}
}
