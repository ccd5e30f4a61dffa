package api_test

// Helpers shared by the external tests of the fake: a request builder that talks to a
// fakeserver.TestServer over real HTTP, credentials of the default fixture by role, and
// envelope checks.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// defaultFixture is the embedded default fixture the test servers start on.
var defaultFixture = fixtures.Default()

// basicAuth returns the Authorization header value of the default fixture's user of role.
func basicAuth(t testing.TB, role string) string {
	t.Helper()
	u, ok := defaultFixture.UserByRole(role)
	if !ok {
		t.Fatalf("default fixture has no user of role %q", role)
	}
	return basicHeader(u.Email, u.APIKey)
}

func basicHeader(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// request is one HTTP request to the fake. Zero fields mean: no query, no body, no
// credentials.
type request struct {
	method      string
	path        string // may carry percent-escapes; sent as the raw path
	query       string // raw query string, without "?"
	body        []byte
	contentType string
	auth        string // Authorization header value, "" for none
	headers     map[string]string
}

// response is what the fake answered.
type response struct {
	status int
	header http.Header
	body   []byte
	env    map[string]any // decoded JSON object, nil when the body is not one
}

func (r response) String() string {
	b := r.body
	if len(b) > 400 {
		b = append(append([]byte{}, b[:400]...), "..."...)
	}
	return string(b)
}

// httpClient does not follow redirects: a test sees them, and never leaves the machine (the
// avatar redirects lead to gravatar). It sets no timeout: how long an answer takes grows with
// the machine's load, and a request that never ends is go test -timeout's to report.
var httpClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// patience is how long a test waits for what load only delays (an event, a journal entry, a
// due reminder): until a little before the test binary's deadline, so that a condition that
// never holds fails under this test's name, and one that holds late on a busy machine passes.
func patience(t *testing.T) time.Duration {
	deadline, ok := t.Deadline()
	if !ok {
		return 10 * time.Minute
	}
	return time.Until(deadline) * 9 / 10
}

// newServer starts a fake on the default fixture for the duration of the test.
func newServer(t testing.TB) *fakeserver.TestServer {
	t.Helper()
	ts := fakeserver.NewTestServer()
	t.Cleanup(ts.Close)
	return ts
}

// do sends req to the server at base and decodes the answer.
func do(t testing.TB, base string, req request) response {
	t.Helper()
	res, err := send(httpClient, base, req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.method, req.path, err)
	}
	return res
}

// send is do with a client of the caller's choosing and without t (other goroutines, short
// timeouts). Control requests carry the header the suite sends, which a cross-site form
// cannot.
func send(client *http.Client, base string, req request) (response, error) {
	target := base + req.path
	if req.query != "" {
		target += "?" + req.query
	}
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	hr, err := http.NewRequest(req.method, target, body)
	if err != nil {
		return response{}, err
	}
	if req.contentType != "" {
		hr.Header.Set("Content-Type", req.contentType)
	}
	if req.auth != "" {
		hr.Header.Set("Authorization", req.auth)
	}
	hr.Header.Set(fakeserver.SpecHeader, "fakeserver unit test")
	for k, v := range req.headers {
		hr.Header.Set(k, v)
	}
	res, err := client.Do(hr)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, fmt.Errorf("reading body: %w", err)
	}
	out := response{status: res.StatusCode, header: res.Header, body: data}
	var env map[string]any
	if json.Unmarshal(data, &env) == nil {
		out.env = env
	}
	return out, nil
}

// formBody encodes name/value pairs as an application/x-www-form-urlencoded body.
func formBody(kv ...string) []byte {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return []byte(v.Encode())
}

const formType = "application/x-www-form-urlencoded"

// isJSON reports whether the response declares a JSON media type.
func isJSON(res response) bool {
	mt, _, err := mime.ParseMediaType(res.header.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

// envelopeProblem returns why res is not a well-formed error envelope ("" when it is):
// JSON content type, a 4xx status, result "error", non-empty code and msg strings.
func envelopeProblem(res response) string {
	switch {
	case res.status >= 500:
		return "server error status"
	case res.status < 400:
		return "not an error status"
	case !isJSON(res):
		return "Content-Type is " + res.header.Get("Content-Type")
	case res.env == nil:
		return "body is not a JSON object"
	case res.env["result"] != "error":
		return "result is not \"error\""
	}
	if code, _ := res.env["code"].(string); code == "" && res.status != http.StatusMethodNotAllowed {
		return "code is not a non-empty string"
	}
	if _, ok := res.env["code"]; ok && res.status == http.StatusMethodNotAllowed {
		return "a 405 carries a code"
	}
	if msg, _ := res.env["msg"].(string); msg == "" {
		return "msg is not a non-empty string"
	}
	return ""
}

// successProblem returns why res is not a success envelope ("" when it is).
func successProblem(res response) string {
	switch {
	case res.status != http.StatusOK:
		return "status is not 200"
	case !isJSON(res):
		return "Content-Type is " + res.header.Get("Content-Type")
	case res.env == nil:
		return "body is not a JSON object"
	case res.env["result"] != "success":
		return "result is not \"success\""
	case res.env["msg"] != "":
		return "msg is not empty"
	}
	return ""
}

// requireSuccess fails the test unless res is a success envelope.
func requireSuccess(t testing.TB, what string, res response) map[string]any {
	t.Helper()
	if p := successProblem(res); p != "" {
		t.Fatalf("%s: %s (HTTP %d): %s", what, p, res.status, res)
	}
	return res.env
}

// get and post are shorthands for authenticated requests during setup and state checks.
func get(t testing.TB, base, auth, path, query string) response {
	t.Helper()
	return do(t, base, request{method: http.MethodGet, path: path, query: query, auth: auth})
}

func post(t testing.TB, base, auth, path string, kv ...string) response {
	t.Helper()
	return do(t, base, request{method: http.MethodPost, path: path, body: formBody(kv...), contentType: formType, auth: auth})
}

// canonical renders v as JSON with sorted keys, for comparisons of state.
func canonical(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// cut shortens long strings in failure messages.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// decodeObject decodes a JSON object, nil when data is not one.
func decodeObject(data []byte) map[string]any {
	var env map[string]any
	if json.Unmarshal(data, &env) != nil {
		return nil
	}
	return env
}

func integConfig(t *testing.T, base string, kv ...string) {
	t.Helper()
	requireSuccess(t, "config", do(t, base, request{method: http.MethodPatch, path: "/_fake/config", body: formBody(kv...), contentType: formType}))
}

func integAdvance(t *testing.T, base string, seconds int64) {
	t.Helper()
	requireSuccess(t, "clock", post(t, base, "", "/_fake/clock", "advance", fmt.Sprint(seconds)))
}
