package api_test

// POST /user_topics and operation 3 share one state: what one sets, the other and the
// register state see.

import (
	"net/http"
	"slices"
	"testing"
)

func TestUserTopicsShareMutingState(t *testing.T) {
	ts := newServer(t)
	state := func() (string, string) {
		// Separately: a client that names user_topic gets no muted_topics.
		reg := func(eventType string) map[string]any {
			return requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["`+eventType+`"]`))
		}
		env := reg("user_topic")
		var policies []any
		for _, ut := range env["user_topics"].([]any) {
			u := ut.(map[string]any)
			policies = append(policies, []any{u["stream_id"], u["topic_name"], u["visibility_policy"]})
		}
		var muted []any
		for _, m := range reg("muted_topics")["muted_topics"].([]any) {
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

// The real server sends the legacy muted_topics event (the whole list) besides user_topic,
// and keeps it from a queue that asked for user_topic; register's muted_topics likewise.
func TestMutedTopicsLegacyEvents(t *testing.T) {
	ts := newServer(t)
	cases := []struct {
		eventTypes string // "" for every type
		want       string // the event types the queue gets
	}{
		{"", `["muted_topics","user_topic"]`},
		{`["muted_topics"]`, `["muted_topics"]`},
		{`["user_topic"]`, `["user_topic"]`},
		{`["user_topic","muted_topics"]`, `["user_topic"]`},
	}
	queues := make([]string, len(cases))
	for i, c := range cases {
		if c.eventTypes == "" {
			queues[i] = evRegister(t, ts.URL, memberAuth)
		} else {
			queues[i] = evRegister(t, ts.URL, memberAuth, "event_types", c.eventTypes)
		}
	}
	requireSuccess(t, "mute", post(t, ts.URL, memberAuth, "/api/v1/user_topics", "stream_id", "1", "topic", "noise", "visibility_policy", "1"))
	for i, c := range cases {
		var types []any
		for _, ev := range evPoll(t, ts.URL, memberAuth, queues[i], -1, true) {
			types = append(types, ev["type"])
			if ev["type"] == "muted_topics" && canonical(ev["muted_topics"].([]any)[0].([]any)[:2]) != `["general","noise"]` {
				t.Errorf("muted_topics event %s", canonical(ev))
			}
		}
		if canonical(types) != c.want {
			t.Errorf("event_types %s: got %s, want %s", c.eventTypes, canonical(types), c.want)
		}
	}
	for _, c := range []struct {
		fetch string
		want  []string
	}{
		{`["muted_topics"]`, []string{"muted_topics"}},
		{`["user_topic","muted_topics"]`, []string{"user_topics"}},
	} {
		env := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", c.fetch))
		for _, key := range []string{"muted_topics", "user_topics"} {
			if _, got := env[key]; got != slices.Contains(c.want, key) {
				t.Errorf("fetch_event_types %s: %s present %v", c.fetch, key, got)
			}
		}
	}
}
