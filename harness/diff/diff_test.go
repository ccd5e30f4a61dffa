package diff

import (
	"slices"
	"testing"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/report"
)

func TestCompare(t *testing.T) {
	ex := func(method, url string, status int, body string) harness.Exchange {
		return harness.Exchange{Method: method, URL: url, Status: status, ResponseBody: body}
	}
	msg := func(id string) string { return `{"result":"success","msg":"","message":{"id":` + id + `,"flags":[]}}` }
	for _, tc := range []struct {
		name string
		a, b []harness.Exchange
		want []string
	}{
		{"other IDs and run names", []harness.Exchange{ex("GET", "http://a/api/v1/messages/12", 200, msg("12"))},
			[]harness.Exchange{ex("GET", "http://b/api/v1/messages/345", 200, msg("345"))}, nil},
		{"a field only one side sends", []harness.Exchange{ex("GET", "http://a/api/v1/users/me", 200, `{"result":"success","user_id":1,"extra":true}`)},
			[]harness.Exchange{ex("GET", "http://b/api/v1/users/me", 200, `{"result":"success","user_id":1}`)},
			[]string{"GET /users/me #1: field extra only on A"}},
		{"a field's type", []harness.Exchange{ex("GET", "http://a/x", 200, `{"n":1}`)}, []harness.Exchange{ex("GET", "http://b/x", 200, `{"n":"1"}`)},
			[]string{"GET /x #1: field n is number on A, string on B"}},
		{"elements one side did not have", []harness.Exchange{ex("GET", "http://a/x", 200, `{"list":[{"id":1,"creator":null}]}`)},
			[]harness.Exchange{ex("GET", "http://b/x", 200, `{"list":[{"id":1,"creator":7},{"id":2,"creator":null}]}`), ex("GET", "http://b/x", 200, `{"list":[]}`)}, nil},
		{"the status and the error", []harness.Exchange{ex("GET", "http://a/x", 400, `{"result":"error","code":"BAD_REQUEST","msg":"Invalid message(s) 12"}`)},
			[]harness.Exchange{ex("GET", "http://b/x", 404, `{"result":"error","code":"NOT_FOUND","msg":"Invalid message(s) 99"}`)},
			[]string{"GET /x #1: HTTP status 400 on A, 404 on B", `GET /x #1: error code "BAD_REQUEST" on A, "NOT_FOUND" on B`}},
		{"a map keyed by users", []harness.Exchange{ex("POST", "http://a/p", 200, `{"presences":{"u-abc123-1-2@x.test":{"active":1}}}`)},
			[]harness.Exchange{ex("POST", "http://b/p", 200, `{"presences":{"5":{"active":1},"6":{"active":2}}}`)}, nil},
		{"events in another order, heartbeats aside", []harness.Exchange{
			ex("GET", "http://a/api/v1/events?queue_id=1", 200, `{"events":[{"type":"message"},{"type":"heartbeat"}]}`),
			ex("GET", "http://a/api/v1/events?queue_id=1", 200, `{"events":[{"type":"subscription","op":"update"}]}`)},
			[]harness.Exchange{ex("GET", "http://b/api/v1/events?queue_id=9", 200, `{"events":[{"type":"subscription","op":"update"},{"type":"message"}]}`)},
			[]string{"GET /events: events [message subscription/update] on A, [subscription/update message] on B"}},
		{"the fake's control API", []harness.Exchange{ex("POST", "http://a/_fake/clock", 200, `{"now":1}`)},
			[]harness.Exchange{ex("POST", "http://b/_fake/clock", 200, `{"later":1}`)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Compare(map[string]report.SpecExchanges{"s": {Spec: "s", State: "passed", Exchanges: tc.a}},
				map[string]report.SpecExchanges{"s": {Spec: "s", State: "passed", Exchanges: tc.b}})
			var diffs []string
			if len(got) == 1 {
				diffs = got[0].Differences
			}
			if !slices.Equal(diffs, tc.want) {
				t.Errorf("differences %q, want %q", diffs, tc.want)
			}
		})
	}
}
