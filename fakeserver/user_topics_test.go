package fakeserver_test

// POST /user_topics and operation 3 share one state: what one sets, the other and the
// register state see.

import (
	"net/http"
	"testing"
)

func TestUserTopicsShareMutingState(t *testing.T) {
	ts := newServer(t)
	state := func() (string, string) {
		env := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["user_topic","muted_topics"]`))
		var policies []any
		for _, ut := range env["user_topics"].([]any) {
			u := ut.(map[string]any)
			policies = append(policies, []any{u["stream_id"], u["topic_name"], u["visibility_policy"]})
		}
		var muted []any
		for _, m := range env["muted_topics"].([]any) {
			muted = append(muted, m.([]any)[:2])
		}
		return canonical(policies), canonical(muted)
	}
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["user_topic"]`)

	requireSuccess(t, "follow", post(t, ts.URL, memberAuth, "/api/v1/user_topics", "stream_id", "1", "topic", "news", "visibility_policy", "3"))
	requireSuccess(t, "mute", post(t, ts.URL, memberAuth, "/api/v1/user_topics", "stream_id", "1", "topic", "noise", "visibility_policy", "1"))
	if p, m := state(); p != `[[1,"news",3],[1,"noise",1]]` || m != `[["general","noise"]]` {
		t.Errorf("after following and muting: user_topics %s, muted_topics %s", p, m)
	}
	// The deprecated operation unmutes what the new one muted.
	requireSuccess(t, "unmute (operation 3)", do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/users/me/subscriptions/muted_topics",
		body: formBody("stream_id", "1", "topic", "NOISE", "op", "remove"), contentType: formType, auth: memberAuth}))
	requireSuccess(t, "back to inherit", post(t, ts.URL, memberAuth, "/api/v1/user_topics", "stream_id", "1", "topic", "news", "visibility_policy", "0"))
	if p, m := state(); p != `null` || m != `null` {
		t.Errorf("after clearing both: user_topics %s, muted_topics %s", p, m)
	}
	evs := evPoll(t, ts.URL, memberAuth, queue, -1, true)
	var got []any
	for _, ev := range evs {
		got = append(got, []any{ev["topic_name"], ev["visibility_policy"]})
	}
	if canonical(got) != `[["news",3],["noise",1],["NOISE",0],["news",0]]` {
		t.Errorf("user_topic events %s", canonical(got))
	}
}
