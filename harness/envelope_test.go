package harness

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gavv/httpexpect/v2"
)

// recorder is an httpexpect.Reporter that keeps failures instead of
// failing, so tests can assert that a bad envelope is rejected.
type recorder struct {
	mu       sync.Mutex
	failures []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.failures
	r.failures = nil
	return f
}

// envelopeServer answers /case/<name> with a canned status, content type
// and body.
func envelopeServer(t *testing.T) *httptest.Server {
	cases := map[string]struct {
		status int
		ctype  string
		body   string
	}{
		"success":              {200, "application/json", `{"result":"success","msg":"","id":1}`},
		"success-extra":        {200, "application/json; charset=utf-8", `{"msg":"","result":"success","anything":[1,2]}`},
		"success-odd-status":   {201, "application/json", `{"result":"success","msg":""}`},
		"success-text-plain":   {200, "text/plain", `{"result":"success","msg":""}`},
		"success-with-msg":     {200, "application/json", `{"result":"success","msg":"ok"}`},
		"success-no-msg":       {200, "application/json", `{"result":"success"}`},
		"success-msg-null":     {200, "application/json", `{"result":"success","msg":null}`},
		"result-ok":            {200, "application/json", `{"result":"ok","msg":""}`},
		"not-json":             {200, "text/html", `<html>oops</html>`},
		"array":                {200, "application/json", `[{"result":"success","msg":""}]`},
		"error-bad-request":    {400, "application/json", `{"result":"error","code":"BAD_REQUEST","msg":"Invalid message(s)"}`},
		"error-odd-status":     {200, "application/json", `{"result":"error","code":"BAD_REQUEST","msg":""}`},
		"error-no-code":        {400, "application/json", `{"result":"error","msg":"Method Not Allowed"}`},
		"error-empty-code":     {400, "application/json", `{"result":"error","code":"","msg":"x"}`},
		"error-number-msg":     {400, "application/json", `{"result":"error","code":"BAD_REQUEST","msg":5}`},
		"error-no-msg":         {400, "application/json", `{"result":"error","code":"BAD_REQUEST"}`},
		"error-other-code":     {401, "application/json", `{"result":"error","code":"UNAUTHORIZED","msg":"Not logged in"}`},
		"error-not-json":       {500, "text/plain", `Internal Server Error`},
		"error-result-success": {400, "application/json", `{"result":"success","msg":"","code":"BAD_REQUEST"}`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := cases[strings.TrimPrefix(r.URL.Path, "/api/v1/case/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", c.ctype)
		w.WriteHeader(c.status)
		_, _ = io.WriteString(w, c.body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestEnvelopeMatchers(t *testing.T) {
	srv := envelopeServer(t)
	rec := &recorder{}
	tgt := &Target{URL: srv.URL, Reporter: rec, Log: io.Discard}
	tests := []struct {
		name    string
		check   func(*httpexpect.Response)
		wantOK  bool
		because string
	}{
		{"success", func(r *httpexpect.Response) { Success(r) }, true, ""},
		{"success-extra", func(r *httpexpect.Response) { Success(r) }, true, "unknown fields are allowed"},
		{"success-odd-status", func(r *httpexpect.Response) { Success(r) }, true, "status is not asserted"},
		{"success-text-plain", func(r *httpexpect.Response) { Success(r) }, true, "content type is not documented"},
		{"success-with-msg", func(r *httpexpect.Response) { Success(r) }, false, "msg must be empty"},
		{"success-no-msg", func(r *httpexpect.Response) { Success(r) }, false, "msg is required"},
		{"success-msg-null", func(r *httpexpect.Response) { Success(r) }, false, "msg must be a string"},
		{"result-ok", func(r *httpexpect.Response) { Success(r) }, false, "result must be success"},
		{"not-json", func(r *httpexpect.Response) { Success(r) }, false, "body must be JSON"},
		{"array", func(r *httpexpect.Response) { Success(r) }, false, "body must be an object"},
		{"error-bad-request", func(r *httpexpect.Response) { Success(r) }, false, "an error is not a success"},

		{"error-bad-request", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, true, ""},
		{"error-odd-status", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, true, "status is not asserted"},
		{"error-other-code", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, false, "code must match"},
		{"error-no-code", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, false, "code is required"},
		{"error-number-msg", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, false, "msg must be a string"},
		{"error-no-msg", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, false, "msg is required"},
		{"error-not-json", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, false, "body must be JSON"},
		{"error-result-success", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, false, "result must be error"},
		{"success", func(r *httpexpect.Response) { FailsWith(r, "BAD_REQUEST") }, false, "a success is not an error"},

		{"error-bad-request", func(r *httpexpect.Response) { Fails(r) }, true, ""},
		{"error-other-code", func(r *httpexpect.Response) { Fails(r) }, true, "any code"},
		{"error-no-code", func(r *httpexpect.Response) { Fails(r) }, false, "a code is still required"},
		{"error-empty-code", func(r *httpexpect.Response) { Fails(r) }, false, "the code must not be empty"},
		{"error-number-msg", func(r *httpexpect.Response) { Fails(r) }, false, "msg must be a string"},
		{"success", func(r *httpexpect.Response) { Fails(r) }, false, "a success is not an error"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.because, func(t *testing.T) {
			rec.take()
			tt.check(tgt.Anonymous().GET("/case/" + tt.name).Expect())
			failures := rec.take()
			if tt.wantOK && len(failures) > 0 {
				t.Errorf("rejected (%s):\n%s", tt.because, strings.Join(failures, "\n"))
			}
			if !tt.wantOK && len(failures) == 0 {
				t.Errorf("accepted, but %s", tt.because)
			}
		})
	}
}

func TestClientRequests(t *testing.T) {
	type seen struct{ ua, spec, user, pass, path string }
	var (
		mu   sync.Mutex
		reqs []seen
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		mu.Lock()
		reqs = append(reqs, seen{r.UserAgent(), r.Header.Get(SpecHeader), u, p, r.URL.Path})
		mu.Unlock()
		success(w, map[string]any{"api_key": ownerKey})
	}))
	t.Cleanup(srv.Close)

	var log bytes.Buffer
	rec := &recorder{}
	member := User{Role: Member, ID: 4, Email: "member@x.test", APIKey: ownerKey}
	tgt := &Target{URL: srv.URL, Reporter: rec, Log: &log, Users: map[Role]User{Member: member},
		Capabilities: map[string]bool{"clock": true}}

	Success(tgt.As(tgt.User(Member)).POST("/messages").WithFormField("password", "pw-pw-pw-pw-9999").Expect())
	Success(tgt.Anonymous().GET("/server_settings").Expect())
	Success(tgt.WithBasicAuth("who@x.test", "bad").GET("/users/me").Expect())
	Success(tgt.Fake().GET("/_fake/clock").Expect())
	if f := rec.take(); len(f) > 0 {
		t.Fatalf("failures: %v", f)
	}
	if c := tgt.As(tgt.User(Member)); c.User != member {
		t.Errorf("As(Member).User = %+v", c.User)
	}

	want := []seen{
		{"chatconform/" + Version, "setup", "member@x.test", ownerKey, "/api/v1/messages"},
		{"chatconform/" + Version, "setup", "", "", "/api/v1/server_settings"},
		{"chatconform/" + Version, "setup", "who@x.test", "bad", "/api/v1/users/me"},
		{"chatconform/" + Version, "setup", "", "", "/_fake/clock"},
	}
	if fmt.Sprint(reqs) != fmt.Sprint(want) {
		t.Errorf("requests:\n got %v\nwant %v", reqs, want)
	}

	out := log.String()
	if strings.Contains(out, ownerKey) || strings.Contains(out, "pw-pw-pw-pw-9999") {
		t.Errorf("exchange log holds a secret:\n%s", out)
	}
	for _, want := range []string{"--> POST " + srv.URL + "/api/v1/messages", "Authorization: Basic member@x.test:****",
		"password=****", `"api_key":"****"`, "<-- 200 OK", "--> GET " + srv.URL + "/_fake/clock"} {
		if !strings.Contains(out, want) {
			t.Errorf("exchange log lacks %q:\n%s", want, out)
		}
	}
}

// TestFailureMessageRedacted checks that a failing assertion on a body with
// a key does not leak the key through the failure message.
func TestFailureMessageRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"result":"error","msg":"no code","api_key":"`+ownerKey+`"}`)
	}))
	t.Cleanup(srv.Close)
	var got string
	tgt := &Target{URL: srv.URL, Log: io.Discard, Reporter: httpexpect.ReporterFunc(func(format string, args ...any) {
		got = RedactText(fmt.Sprintf(format, args...)) // what ginkgoReporter does before failing
	})}
	// A missing key makes httpexpect print the whole object.
	FailsWith(tgt.Anonymous().GET("/x").Expect(), "BAD_REQUEST")
	if !strings.Contains(got, `"api_key": "****"`) {
		t.Fatalf("failure message does not show the redacted object:\n%s", got)
	}
	if strings.Contains(got, ownerKey) {
		t.Errorf("failure message holds the key:\n%s", got)
	}
}

func TestBareSuccess(t *testing.T) {
	bodies := map[string]string{
		"bare":    `{"result":"success","msg":""}`,
		"ignored": `{"result":"success","msg":"","ignored_parameters_unsupported":["x"]}`,
		"field":   `{"result":"success","msg":"","id":1}`,
		"error":   `{"result":"error","msg":"no","code":"BAD_REQUEST"}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, bodies[strings.TrimPrefix(r.URL.Path, "/api/v1/")])
	}))
	t.Cleanup(srv.Close)
	rec := &recorder{}
	tgt := &Target{URL: srv.URL, Reporter: rec, Log: io.Discard}
	for _, tt := range []struct {
		name   string
		wantOK bool
	}{
		{"bare", true},
		{"ignored", true},
		{"field", true}, // an undocumented field is information, never a failure
		{"error", false},
	} {
		rec.take()
		BareSuccess(tgt.Anonymous().GET("/" + tt.name).Expect())
		if failures := rec.take(); (len(failures) == 0) != tt.wantOK {
			t.Errorf("%s: failures %v, want ok=%v", tt.name, failures, tt.wantOK)
		}
	}
}
