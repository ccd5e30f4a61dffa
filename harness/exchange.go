package harness

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// maxLoggedBody caps a logged body: enough for any JSON envelope, not a
// megabyte of upload.
const maxLoggedBody = 16 << 10

// exchangePrinter is an httpexpect.Printer that writes each request and
// response, credentials redacted, to a writer (GinkgoWriter by default):
// Ginkgo shows that output only for failed specs (or with -v), so a failure
// carries its HTTP exchange and a passing spec stays quiet.
type exchangePrinter struct {
	out func() io.Writer
}

// Request implements httpexpect.Printer.
func (p exchangePrinter) Request(req *http.Request) {
	if req == nil {
		return
	}
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		// httpexpect rewinds the body after every printer.
		body, _ = io.ReadAll(req.Body)
	}
	logRequest(p.out(), req.Method, req.URL, req.Header, body)
}

// Response implements httpexpect.Printer.
func (p exchangePrinter) Response(resp *http.Response, d time.Duration) {
	if resp == nil {
		return
	}
	var body []byte
	if resp.Body != nil {
		body, _ = io.ReadAll(resp.Body)
	}
	logResponse(p.out(), resp.Status, resp.Header, body, d)
}

// logRequest writes one request in a single Write so that lines of
// concurrent requests do not interleave.
func logRequest(w io.Writer, method string, u *url.URL, h http.Header, body []byte) {
	var b strings.Builder
	shown := *u
	shown.User = nil
	shown.RawQuery = redactQuery(u.RawQuery)
	fmt.Fprintf(&b, "--> %s %s\n", method, shown.String())
	writeHeaders(&b, h)
	writeBody(&b, h.Get("Content-Type"), body)
	_, _ = io.WriteString(w, b.String())
}

// logResponse writes one response, see logRequest.
func logResponse(w io.Writer, status string, h http.Header, body []byte, d time.Duration) {
	var b strings.Builder
	fmt.Fprintf(&b, "<-- %s (%s)\n", status, d.Round(time.Millisecond))
	writeHeaders(&b, h)
	writeBody(&b, h.Get("Content-Type"), body)
	b.WriteString("\n")
	_, _ = io.WriteString(w, b.String())
}

func writeHeaders(b *strings.Builder, h http.Header) {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range h[k] {
			fmt.Fprintf(b, "    %s: %s\n", k, redactHeader(k, v))
		}
	}
}

// writeBody shows form bodies one parameter per line (decoded, as the spec wrote them), and
// anything else as bodyText gives it.
func writeBody(b *strings.Builder, contentType string, body []byte) {
	if len(body) == 0 {
		return
	}
	if mt, _, _ := mime.ParseMediaType(contentType); mt == "application/x-www-form-urlencoded" {
		for _, pair := range strings.Split(string(body), "&") {
			k, v, _ := strings.Cut(pair, "=")
			k, _ = url.QueryUnescape(k)
			v, _ = url.QueryUnescape(v)
			if isSecretParam(k) {
				v = RedactSecret(v)
			}
			fmt.Fprintf(b, "    %s=%s\n", k, truncate(v))
		}
		return
	}
	for _, line := range strings.Split(bodyText(contentType, body), "\n") {
		fmt.Fprintf(b, "    %s\n", line)
	}
}

func truncate(s string) string {
	if len(s) <= maxLoggedBody {
		return s
	}
	return s[:maxLoggedBody] + fmt.Sprintf("… (%d bytes more)", len(s)-maxLoggedBody)
}

// redactQuery hides credential parameters of a raw query string.
func redactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if name, err := url.QueryUnescape(k); err == nil && ok && isSecretParam(name) {
			parts[i] = k + "=" + RedactSecret(v) // display only, never sent
		}
	}
	return strings.Join(parts, "&")
}
