package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/chatconform/chatconform/harness/buildversion"
)

// Version is the harness version sent in the User-Agent and written in reports; release builds
// set it with -ldflags "-X github.com/chatconform/chatconform/harness.Version=…". Unstamped, it is
// what the build information records (go install's module version, or the commit).
var Version = buildversion.Unstamped

func init() { Version = buildversion.Of(Version) }

// SpecHeader is the request header that names the spec sending a request, so
// server logs can be matched to specs.
const SpecHeader = "X-Chatconform-Spec"

// userAgent identifies the suite to the target.
func userAgent() string { return "chatconform/" + Version }

// specName is the value of SpecHeader: the running spec's full text, or
// "setup" outside a spec (Connect, suite nodes).
func specName() string {
	name := ginkgo.CurrentSpecReport().FullText()
	if name == "" {
		return "setup"
	}
	return headerSafe(name)
}

// headerSafe makes s a safe header value: printable ASCII only (non-ASCII
// is \u-escaped, controls become spaces), at most 400 bytes.
func headerSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		case r < 0x80:
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		if b.Len() >= 400 {
			break
		}
	}
	out := b.String()
	if len(out) > 400 {
		out = out[:400]
	}
	return out
}

// APIError is a failed setup call (Connect, provisioning): an error
// envelope, a body that is not one, or a transport failure.
type APIError struct {
	Method, Path string
	As           string // the email the call authenticated as, "" if none
	Status       int    // HTTP status, 0 if no response
	Code, Msg    string // from the error envelope
	Detail       string // what went wrong otherwise
}

// Error says what was called, as whom, and what came back.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", e.Method, e.Path)
	if e.As != "" {
		fmt.Fprintf(&b, " as %s", e.As)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d", e.Status)
	}
	if e.Code != "" || e.Msg != "" {
		fmt.Fprintf(&b, ": error %s %q", e.Code, e.Msg)
	}
	if e.Detail != "" {
		fmt.Fprintf(&b, ": %s", e.Detail)
	}
	return b.String()
}

// object is a decoded JSON object of a success response.
type object map[string]any

// int returns an integer field.
func (o object) int(key string) (int, bool) {
	f, ok := o[key].(float64)
	if !ok || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

// string returns a string field.
func (o object) string(key string) (string, bool) {
	s, ok := o[key].(string)
	return s, ok
}

// api calls an operation under /api/v1 as u (nil: no credentials) and
// returns the success body, or an *APIError.
func (t *Target) api(method, path string, u *User, params url.Values) (object, error) {
	return t.call(method, t.URL+"/api/v1"+path, u, params)
}

// call sends one form-encoded (or, for GET, query) request and decodes the
// envelope. Setup code uses it instead of httpexpect because it must return
// errors rather than fail a spec; it logs the exchange the same way.
func (t *Target) call(method, rawURL string, u *User, params url.Values) (object, error) {
	r, err := t.exchange(context.Background(), t.httpClient(), method, rawURL, u, params)
	return r.obj, err
}

// reply is what exchange read: the success body, and the raw body whatever it held (nil when
// none was read).
type reply struct {
	obj object
	raw []byte
}

// exchange is call with a context and a client of the caller's choosing (a long poll needs
// both: a deadline of its own and no client timeout). It also returns the raw body. A request
// cut short by ctx returns errDeadline.
func (t *Target) exchange(ctx context.Context, client *http.Client, method, rawURL string, u *User, params url.Values) (reply, error) {
	path := strings.TrimPrefix(rawURL, t.URL)
	fail := &APIError{Method: method, Path: path}
	if u != nil {
		fail.As = u.Email
	}

	var body io.Reader
	encoded := params.Encode()
	if method == http.MethodGet || method == http.MethodHead {
		if encoded != "" {
			rawURL += "?" + encoded
		}
		encoded = ""
	} else {
		body = strings.NewReader(encoded)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, body)
	if err != nil {
		fail.Detail = err.Error()
		return reply{}, fail
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("User-Agent", userAgent())
	req.Header.Set(SpecHeader, specName())
	if u != nil {
		req.SetBasicAuth(u.Email, u.APIKey)
	}

	log := t.logWriter()
	logRequest(log, method, req.URL, req.Header, []byte(encoded))
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(log, "<-- (no response: abandoned at the deadline after %s)\n\n", time.Since(start).Round(time.Millisecond))
			return reply{}, errDeadline
		}
		fail.Detail = err.Error()
		return reply{}, fail
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	logResponse(log, resp.Status, resp.Header, raw, time.Since(start))
	fail.Status = resp.StatusCode
	if err != nil {
		if ctx.Err() != nil {
			return reply{}, errDeadline
		}
		fail.Detail = "reading the body: " + err.Error()
		return reply{raw: raw}, fail
	}

	var obj object
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		fail.Detail = fmt.Sprintf("body is not a JSON object: %.200q", RedactText(string(raw)))
		return reply{raw: raw}, fail
	}
	if result, _ := obj.string("result"); result != "success" {
		fail.Code, _ = obj.string("code")
		fail.Msg, _ = obj.string("msg")
		if result != "error" {
			fail.Detail = fmt.Sprintf("result is %q, want success", result)
		}
		return reply{raw: raw}, fail
	}
	return reply{obj: obj, raw: raw}, nil
}

// jsonParam encodes an array or object parameter: the API sends those as
// JSON-encoded strings.
func jsonParam(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("harness: encoding parameter: %v", err))
	}
	return string(b)
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
