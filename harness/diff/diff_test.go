package diff

import (
	"fmt"
	"slices"
	"strings"
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

// TestGroups: a difference shown by many specs, in any of their requests, is one group that
// lists them; verdicts come first; Write prints each group once, its specs bounded.
func TestGroups(t *testing.T) {
	var specs []Spec
	for i := range 8 {
		specs = append(specs, Spec{Spec: fmt.Sprintf("spec %d", i), StateA: "passed", StateB: "passed",
			Differences: []string{"GET /users/# #1: field user.is_imported_stub only on A", "GET /users/# #2: field user.is_imported_stub only on A"}})
	}
	specs = append(specs,
		Spec{Spec: "level", StateA: "passed", StateB: "skipped", ReasonB: "not applicable: needs feature level 468, target has 400"},
		Spec{Spec: "other", StateA: "passed", StateB: "passed", Differences: []string{"POST /register #1: field max_reminder_note_length only on A"}})
	groups := Groups(specs)
	want := []string{
		"verdict: passed on A, skipped on B; on B: not applicable: needs feature level 468, target has 400 [level]",
		"GET /users/#: field user.is_imported_stub only on A [spec 0 spec 1 spec 2 spec 3 spec 4 spec 5 spec 6 spec 7]",
		"POST /register: field max_reminder_note_length only on A [other]",
	}
	var got []string
	for _, g := range groups {
		got = append(got, g.Difference+" ["+strings.Join(g.Specs, " ")+"]")
	}
	if !slices.Equal(got, want) {
		t.Errorf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var out strings.Builder
	Write(&out, specs)
	text := out.String()
	if n := strings.Count(text, "field user.is_imported_stub only on A"); n != 1 {
		t.Errorf("the difference printed %d times, want once:\n%s", n, text)
	}
	if !strings.Contains(text, "    … and 3 more\n") || strings.Contains(text, "spec 5") {
		t.Errorf("the specs of a group are not bounded:\n%s", text)
	}
	if !strings.Contains(text, "3 differences in 10 specs (1 specs differ in their verdict)") {
		t.Errorf("no totals:\n%s", text)
	}
}

// TestEveryDifference: a spec that differs in many answers lists every one of them, and no
// line of its list counts others instead of naming them.
func TestEveryDifference(t *testing.T) {
	var a, b []harness.Exchange
	for i := range 20 {
		url := fmt.Sprintf("http://a/api/v1/route%c", 'a'+i)
		a = append(a, harness.Exchange{Method: "GET", URL: url, Status: 200, ResponseBody: `{"result":"success","msg":""}`})
		b = append(b, harness.Exchange{Method: "GET", URL: url, Status: 400, ResponseBody: `{"result":"error","msg":"","code":"BAD_REQUEST"}`})
	}
	specs := Compare(map[string]report.SpecExchanges{"s": {Spec: "s", State: "passed", Exchanges: a}},
		map[string]report.SpecExchanges{"s": {Spec: "s", State: "passed", Exchanges: b}})
	if len(specs) != 1 {
		t.Fatalf("%d specs differ, want 1", len(specs))
	}
	statuses := 0
	for _, d := range specs[0].Differences {
		if strings.Contains(d, "more") {
			t.Errorf("difference %q counts others instead of naming them", d)
		}
		if strings.Contains(d, "HTTP status 200 on A, 400 on B") {
			statuses++
		}
	}
	if statuses != 20 {
		t.Errorf("%d of 20 status differences listed: %q", statuses, specs[0].Differences)
	}
}
