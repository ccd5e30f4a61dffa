package check_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/openapi/check"
	"github.com/chatconform/chatconform/internal/testctx"
)

func newChecker(t *testing.T) *check.Checker {
	t.Helper()
	c, err := check.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const ok = `"result":"success","msg":""`

// wrappedFake serves a fake wrapped in a new checker for the duration of the test.
func wrappedFake(t *testing.T) (*check.Checker, *fakeserver.Server, *httptest.Server) {
	t.Helper()
	c := newChecker(t)
	fake := fakeserver.New()
	srv := httptest.NewServer(c.Wrap(fake))
	t.Cleanup(func() {
		srv.Close()
		fake.Close()
	})
	return c, fake, srv
}

// Each wrong exchange must be reported, and each right one must not: a validator that passes
// everything, or nothing, fails here.
func TestExchanges(t *testing.T) {
	cases := []struct {
		name, method, path string
		form               string // the request's form body, if any
		status             int
		header             http.Header
		body               string
		violation          string // "" when the exchange is right
	}{
		{"a right reply", "GET", "/api/v1/users/me/5/topics", "", 200, nil, `{` + ok + `,"topics":[{"name":"a","max_id":3}]}`, ""},
		{"a required field missing", "GET", "/api/v1/messages/1", "", 200, nil, `{` + ok + `,"raw_content":"x"}`, "message"},
		{"a field of the wrong type", "GET", "/api/v1/users/me/5/topics", "", 200, nil, `{` + ok + `,"topics":[{"name":1,"max_id":3}]}`, "topics"},
		{"result is not success", "POST", "/api/v1/mark_all_as_read", "", 200, nil, `{"result":"error","msg":"","complete":true}`, "result"},
		{"an error with its code", "GET", "/api/v1/messages/1", "", 400, nil, `{"result":"error","msg":"Invalid message(s)","code":"BAD_REQUEST"}`, ""},
		{"an error without a code", "GET", "/api/v1/messages/1", "", 400, nil, `{"result":"error","msg":"Invalid message(s)"}`, "code"},
		{"a typed error field of the wrong type", "GET", "/api/v1/streams/9", "", 400, nil, `{"result":"error","msg":"x","code":"STREAM_DOES_NOT_EXIST","stream_id":"9"}`, "stream_id"},
		{"an undeclared status", "GET", "/api/v1/messages/1", "", 500, nil, `{"result":"error","msg":"Internal server error","code":"BAD_REQUEST"}`, "status"},
		{"an undocumented route that succeeds", "GET", "/api/v1/no_such_route", "", 200, nil, `{` + ok + `}`, "undocumented route"},
		{"an unknown route refused in the envelope", "GET", "/api/v1/no_such_route", "", 404, nil, `{"result":"error","msg":"Not Found","code":"BAD_REQUEST"}`, ""},
		{"an unknown route refused outside the envelope", "GET", "/api/v1/no_such_route", "", 404, nil, `404 page not found`, "not JSON"},
		{"a 405 as the real server sends it", "PUT", "/api/v1/messages/1", "", 405, http.Header{"Allow": {"GET, HEAD, PATCH, DELETE"}}, `{"result":"error","msg":"Method Not Allowed","allowed_methods":["GET","HEAD","PATCH","DELETE"]}`, ""},
		{"a 405 without Allow", "PUT", "/api/v1/messages/1", "", 405, nil, `{"result":"error","msg":"Method Not Allowed","allowed_methods":["GET"]}`, "Allow"},
		{"a wrong method that is not refused with 405", "PUT", "/api/v1/messages/1", "", 404, nil, `{"result":"error","msg":"Not Found","code":"BAD_REQUEST"}`, "405"},
		{"a malformed request that succeeds", "GET", "/api/v1/messages/matches_narrow", "", 200, nil, `{` + ok + `,"messages":{}}`, "does not accept"},
		{"a malformed request refused", "GET", "/api/v1/messages/matches_narrow", "", 400, nil, `{"result":"error","msg":"Missing 'msg_ids' argument","code":"REQUEST_VARIABLE_MISSING","var_name":"msg_ids"}`, ""},
		{"a request without a required parameter that succeeds", "POST", "/api/v1/messages/1/typing", "", 200, nil, `{` + ok + `}`, "required"},
		{"a parameter outside its values that succeeds", "POST", "/api/v1/messages/1/typing", "op=sideways", 200, nil, `{` + ok + `}`, "op"},
		{"a parameter of the wrong type that succeeds", "POST", "/api/v1/users/me/presence", "status=active&ping_only=maybe", 200, nil, `{` + ok + `}`, "ping_only"},
		{"parameters in the query string", "PATCH", "/api/v1/users/me/subscriptions/muted_topics?stream_id=1&topic=a&op=add", "", 200, nil, `{` + ok + `}`, ""},
		{"a required parameter missing from query and body", "PATCH", "/api/v1/users/me/subscriptions/muted_topics?stream_id=1&topic=a", "", 200, nil, `{` + ok + `}`, "op"},
		{"a right request", "POST", "/api/v1/messages/1/typing", "op=start", 200, nil, `{` + ok + `}`, ""},
		{"an undescribed file type", "GET", "/openapi.json", "", 200, http.Header{"Content-Type": {"text/html"}}, `<html>`, "content type"},
		{"HEAD of a GET operation", "HEAD", "/api/v1/users/me/5/topics", "", 200, nil, ``, ""},
		{"HEAD of a GET operation, refused", "HEAD", "/api/v1/messages/1", "", 400, nil, ``, ""},
		{"HEAD of a path without GET, succeeding", "HEAD", "/api/v1/messages/1/typing", "", 200, nil, ``, "undocumented route"},
		{"HEAD of a GET operation, an undeclared status", "HEAD", "/api/v1/messages/1", "", 302, nil, ``, "status"},
		{"a wrong method on a path whose ID is no integer, 404", "PUT", "/api/v1/messages/abc", "", 404, nil, `{"result":"error","msg":"Not Found","code":"BAD_REQUEST"}`, ""},
		{"a wrong method on a path whose ID is an integer, 404", "PUT", "/api/v1/messages/12", "", 404, nil, `{"result":"error","msg":"Not Found","code":"BAD_REQUEST"}`, "405"},
		{"a view's fragment with slashes", "PATCH", "/api/v1/navigation_views/narrow/is/starred", "is_pinned=false", 200, nil, `{` + ok + `}`, ""},
		{"a wrong method on a fragment with slashes, 405", "GET", "/api/v1/navigation_views/narrow/is/starred", "", 405, http.Header{"Allow": {"PATCH, DELETE"}}, `{"result":"error","msg":"Method Not Allowed","allowed_methods":["PATCH","DELETE"]}`, ""},
		{"a 405 on a path deeper than the description's template", "POST", "/user_uploads/1/ab/c/d", "", 405, http.Header{"Allow": {"GET, HEAD"}}, `{"result":"error","msg":"Method Not Allowed","allowed_methods":["GET","HEAD"]}`, ""},
		{"a 405 without Allow on an undescribed path", "POST", "/user_uploads/1/ab/c/d", "", 405, nil, `{"result":"error","msg":"Method Not Allowed","allowed_methods":["GET","HEAD"]}`, "Allow"},
		{"a 405 of another shape on an undescribed path", "POST", "/api/v1/no_such_route", "", 405, http.Header{"Allow": {"GET"}}, `{"result":"error","message":"no"}`, "MethodNotAllowed"},
		{"a fragment with slashes under an undescribed path", "PATCH", "/api/v1/navigation_viewsx/a/b", "", 200, nil, `{` + ok + `}`, "undocumented route"},
		{"DELETE of a user by email, 405", "DELETE", "/api/v1/users/a@b.c", "", 405, http.Header{"Allow": {"GET, HEAD, PATCH"}}, `{"result":"error","msg":"Method Not Allowed","allowed_methods":["GET","HEAD","PATCH"]}`, ""},
		{"a wrong method refused by the control API's guard", "PUT", "/_fake/clock", "", 403, nil, `{"result":"error","msg":"Cross-site control request refused","code":"BAD_REQUEST"}`, ""},
		{"a wrong method refused by authentication", "PUT", "/api/v1/messages/1", "", 401, nil, `{"result":"error","msg":"Not logged in","code":"UNAUTHORIZED"}`, "405"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			header := tc.header
			if header == nil {
				header = http.Header{}
			}
			if header.Get("Content-Type") == "" {
				header.Set("Content-Type", "application/json")
			}
			req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.form))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			_, problems := newChecker(t).Exchange(req, tc.status, header, []byte(tc.body))
			switch {
			case tc.violation == "" && len(problems) > 0:
				t.Fatalf("a right exchange was reported: %v", problems)
			case tc.violation != "" && len(problems) == 0:
				t.Fatalf("a wrong exchange passed (want a violation about %q)", tc.violation)
			case tc.violation != "" && !strings.Contains(strings.Join(problems, "\n"), tc.violation):
				t.Fatalf("violation %v does not mention %q", problems, tc.violation)
			}
		})
	}
}

// Every event of GET /events is checked against the schema of its type.
func TestEvents(t *testing.T) {
	message := `{"id":7,"type":"stream","stream_id":1,"subject":"t","topic_links":[],"content":"hi","content_type":"text/x-markdown",` +
		`"timestamp":1,"sender_id":2,"sender_email":"a@b.c","sender_full_name":"A","sender_realm_str":"r","avatar_url":null,` +
		`"client":"test","display_recipient":"general","recipient_id":3,"is_me_message":false,"reactions":[],"submessages":[]}`
	cases := []struct {
		name, events, violation string
	}{
		{"a heartbeat and a message", `[{"id":0,"type":"heartbeat"},{"id":1,"type":"message","flags":[],"message":` + message + `}]`, ""},
		{"flags inside the message", `[{"id":1,"type":"message","flags":[],"message":` + strings.Replace(message, `"id":7`, `"id":7,"flags":[]`, 1) + `}]`, "events"},
		{"a message event without flags", `[{"id":1,"type":"message","message":` + message + `}]`, "flags"},
		{"an event type the description lacks", `[{"id":1,"type":"no_such_event"}]`, "events"},
		{"a reaction without its user object", `[{"id":1,"type":"reaction","op":"add","message_id":1,"user_id":2,"emoji_name":"a","emoji_code":"1f600","reaction_type":"unicode_emoji"}]`, "user"},
		{"a stream update without its value", `[{"id":1,"type":"stream","op":"update","stream_id":1,"name":"a","property":"description"}]`, "events"},
		{"a realm update_dict", `[{"id":1,"type":"realm","op":"update_dict","property":"default","data":{"allow_message_editing":true}}]`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/api/v1/events?queue_id=q&last_event_id=-1", nil)
			events, problems := newChecker(t).Exchange(req, 200, http.Header{"Content-Type": {"application/json"}},
				[]byte(`{`+ok+`,"events":`+tc.events+`}`))
			if tc.violation == "" {
				if len(problems) > 0 || events == 0 {
					t.Fatalf("right events reported (%d events): %v", events, problems)
				}
				return
			}
			if !strings.Contains(strings.Join(problems, "\n"), tc.violation) {
				t.Fatalf("want a violation about %q, got %v", tc.violation, problems)
			}
		})
	}
}

// The fake itself, wrapped: a client's bootstrap, a message, its event and a few refusals pass
// the check, and the figures count them.
func TestFakeReplies(t *testing.T) {
	c, fake, srv := wrappedFake(t)
	owner := fake.Fixture().Users[0]
	call := func(method, path string, form url.Values) string {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(owner.Email, owner.APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	reg := call("POST", "/api/v1/register", url.Values{"event_types": {`["message"]`}})
	queue := between(reg, `"queue_id":"`, `"`)
	call("POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"checked"}, "content": {"hello"}})
	call("GET", "/api/v1/events?dont_block=true&last_event_id=-1&queue_id="+queue, nil)
	call("GET", "/api/v1/users", nil)
	call("GET", "/api/v1/streams", nil)
	call("GET", "/api/v1/messages/999999", nil)
	call("PUT", "/api/v1/messages/1", nil)
	call("GET", "/api/v1/no_such_route", nil)
	call("GET", "/openapi.json", nil)
	r := c.Report()
	if !r.OK() || r.Exchanges != 9 || r.Events == 0 {
		t.Fatalf("want 9 exchanges, some events and no violation: %s", r)
	}
}

// TestUnreadBody: a body the API does not read (JSON, text, no type) is checked as absent: an operation
// whose parameters are all optional may succeed, one with a required parameter may not.
func TestUnreadBody(t *testing.T) {
	for _, tc := range []struct {
		name, path, ctype, body, violation string
	}{
		{"JSON to an operation of optional parameters", "/api/v1/register", "application/json", `{"event_types":["message"]}`, ""},
		{"text to an operation of optional parameters", "/api/v1/register", "text/plain", `event_types=x`, ""},
		{"JSON carrying a required parameter", "/api/v1/messages/1/typing", "application/json", `{"op":"start"}`, "required"},
		{"JSON for the control API, which reads it", "/_fake/clock", "application/json", `{"advance":60}`, ""},
		{"a form without its type, to an operation of optional parameters", "/api/v1/mobile_push/test_notification", "", `token=abc`, ""},
		{"a form without its type, carrying a required parameter", "/api/v1/messages/1/typing", "", `op=start`, "required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", tc.path, strings.NewReader(tc.body))
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			reply := `{` + ok + `}`
			if tc.path == "/api/v1/register" {
				reply = `{` + ok + `,"queue_id":"q","last_event_id":-1,"zulip_feature_level":1,"zulip_version":"x","zulip_merge_base":"x"}`
			}
			_, problems := newChecker(t).Exchange(req, 200, http.Header{"Content-Type": {"application/json"}}, []byte(reply))
			got := strings.Join(problems, "\n")
			if tc.violation == "" && strings.Contains(got, "does not accept") || tc.violation != "" && !strings.Contains(got, tc.violation) {
				t.Fatalf("want a violation about %q: %v", tc.violation, problems)
			}
		})
	}
}

// TestFakeAnswersAgreeWithDescription: the fake in check mode, asked every described path
// (with integer, non-integer, email and "me" values for its parameters) with every method and
// with bodies it reads and bodies it ignores, as a member and without credentials, answers
// nothing the description calls a violation: HEAD where GET is, 404 for a path no route
// matches, 405 for a method a path does not take, the control API's refusals first.
func TestFakeAnswersAgreeWithDescription(t *testing.T) {
	c := newChecker(t)
	doc, err := check.Load()
	if err != nil {
		t.Fatal(err)
	}
	fake := fakeserver.New()
	defer fake.Close()
	srv := httptest.NewServer(c.Wrap(fake))
	defer srv.Close()
	member := fake.Fixture().Users[3]
	param := regexp.MustCompile(`\{[^}]*\}`)
	bodies := map[string][2]string{ // by method: content type and body
		"POST":  {"application/json", `{"content":"x","op":"start"}`},
		"PATCH": {"text/plain", "name=x"},
		"PUT":   {"application/x-www-form-urlencoded", "name=x"},
	}
	// Redirects (avatars lead off this machine) are not followed.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	sent := 0
	for template := range doc.Paths.Map() {
		values := []string{""}
		if param.MatchString(template) {
			values = []string{"7", "x", "owner@chat.example.test", "me"}
		}
		for _, v := range values {
			path := param.ReplaceAllString(template, v)
			for _, method := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
				for _, auth := range []bool{true, false} {
					b := bodies[method]
					req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(b[1]))
					if b[0] != "" {
						req.Header.Set("Content-Type", b[0])
					}
					if auth {
						req.SetBasicAuth(member.Email, member.APIKey)
					}
					resp, err := client.Do(req)
					if err != nil {
						t.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					sent++
				}
			}
		}
	}
	if r := c.Report(); !r.OK() || r.Exchanges != sent {
		t.Fatalf("%d requests: %s", sent, r)
	}
}

func between(s, start, end string) string {
	_, after, _ := strings.Cut(s, start)
	v, _, _ := strings.Cut(after, end)
	return v
}

// zeros is an endless body that costs its sender no memory.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// A body far over the fake's 25 MB bound is refused 413 once the bound is reached, whether it
// announces its length or comes in chunks: the checker reads no more of it than the fake would.
func TestHugeBodyStopsAtTheBound(t *testing.T) {
	if testing.Short() {
		t.Skip("a measure of allocation that the race detector distorts: make unit runs it")
	}
	c, _, srv := wrappedFake(t)
	const sent = 200 << 20
	// No client timeout: the body is finite, and a fake that read it all would fail on the
	// status and the allocation below, however long that took on a busy machine.
	ctx := testctx.Context(t)
	for _, length := range []int64{sent, -1} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/api/v1/messages", io.LimitReader(zeros{}, sent))
		req.ContentLength = length
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("no answer to a %d MB body (Content-Length %d): %v", sent>>20, length, err)
		}
		resp.Body.Close()
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("Content-Length %d: status %d, want 413", length, resp.StatusCode)
		}
		// The bound's 25 MB, read by growing a buffer, allocate about twice that.
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("Content-Length %d: a %d MB body allocated %d MB in %v", length, sent>>20, allocated>>20, took.Round(time.Millisecond))
		if allocated > 100<<20 {
			t.Errorf("Content-Length %d: a %d MB body allocated %d MB, want at most 100 MB", length, sent>>20, allocated>>20)
		}
	}
	if r := c.Report(); !r.OK() || r.Exchanges != 2 {
		t.Errorf("want 2 exchanges and no violation: %s", r)
	}
}
