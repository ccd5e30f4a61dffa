package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Rate limits: the document gives none ("Rate limits: not shown"), but the real server of
// this family allows 200 requests per 60 s per user and answers HTTP 429 with code
// RATE_LIMIT_HIT and a Retry-After header beyond that. A suite run sends far more, so every
// client of the harness waits a limit out and sends the request again instead of failing
// a spec over it.
const (
	// rateLimitRetries is how many times one request is sent again after being limited.
	rateLimitRetries = 5
	// rateLimitMaxWait caps one wait, whatever Retry-After says.
	rateLimitMaxWait = 60 * time.Second
	// rateLimitDefaultWait is the wait when the answer does not say how long.
	rateLimitDefaultWait = time.Second
	// rateLimitCode is the error code of a limited request on the real server.
	rateLimitCode = "RATE_LIMIT_HIT"
	// errorBodyLimit bounds how much of an error body is read to look for the code.
	errorBodyLimit = 1 << 20
)

// retryTransport is the http.RoundTripper of every client of a target: it bounds each
// attempt by its own timeout (so waiting out a rate limit does not eat a request's time)
// and, when an answer says the request was rate limited, waits as told and sends the
// request again, body included.
type retryTransport struct {
	base http.RoundTripper
	// timeout bounds one attempt, reading the response body included; 0 means none (a
	// long poll is bounded by its request's context instead).
	timeout time.Duration
	// log receives a line per wait in the spec's output; nil for none.
	log func() io.Writer
	// console receives the same line as the wait begins, so that whoever watches a run sees
	// it slow down and why (standard error; in a parallel Ginkgo run it is shown with the spec).
	console io.Writer
	// sleep waits d or until ctx is done; nil means a real timer (tests replace it).
	sleep func(ctx context.Context, d time.Duration) error
}

// newRetryTransport wraps base (nil: http.DefaultTransport).
func newRetryTransport(base http.RoundTripper, timeout time.Duration, log func() io.Writer) *retryTransport {
	if base == nil {
		base = http.DefaultTransport
	}
	return &retryTransport{base: base, timeout: timeout, log: log, console: os.Stderr}
}

// RoundTrip implements http.RoundTripper.
func (rt *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	getBody := req.GetBody
	if getBody == nil && req.Body != nil && req.Body != http.NoBody {
		// Without GetBody the body could be sent only once; request bodies of the suite are
		// small, so keep a copy for the retries.
		buf, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("harness: reading the request body: %w", err)
		}
		getBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf)), nil }
		req = req.Clone(req.Context())
		req.Body, _ = getBody()
		req.GetBody = getBody
	}

	for retry := 0; ; retry++ {
		resp, err := rt.attempt(req)
		if err != nil || retry >= rateLimitRetries {
			return resp, err
		}
		wait, limited := rateLimited(resp)
		if !limited {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, errorBodyLimit))
		resp.Body.Close()

		line := fmt.Sprintf("%s %s%s was rate limited (HTTP %d): waiting %s before retry %d of %d",
			req.Method, req.URL.Redacted(), asWhom(req), resp.StatusCode, wait, retry+1, rateLimitRetries)
		if rt.console != nil {
			fmt.Fprintf(rt.console, "chatconform: %s [%s]\n", line, req.Header.Get(SpecHeader))
		}
		if rt.log != nil {
			fmt.Fprintf(rt.log(), "<-- %s\n\n", line)
		}
		if err := rt.wait(req.Context(), wait); err != nil {
			return nil, err
		}

		next := req.Clone(req.Context())
		if getBody != nil {
			body, err := getBody()
			if err != nil {
				return nil, fmt.Errorf("harness: re-reading the request body for a retry: %w", err)
			}
			next.Body = body
		}
		req = next
	}
}

// asWhom names the user a request authenticates as (" as <email>"), "" for none: the real
// server's limit is per user.
func asWhom(req *http.Request) string {
	if user, _, ok := req.BasicAuth(); ok {
		return " as " + user
	}
	return ""
}

// attempt sends the request once, under the transport's timeout; the timeout's context
// ends when the response body is closed.
func (rt *retryTransport) attempt(req *http.Request) (*http.Response, error) {
	if rt.timeout <= 0 {
		return rt.base.RoundTrip(req)
	}
	ctx, cancel := context.WithTimeout(req.Context(), rt.timeout)
	resp, err := rt.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

func (rt *retryTransport) wait(ctx context.Context, d time.Duration) error {
	if rt.sleep != nil {
		return rt.sleep(ctx, d)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// cancelOnClose releases an attempt's timeout once its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// rateLimited tells whether resp says the request was rate limited (HTTP 429, or an error
// envelope with code RATE_LIMIT_HIT) and how long to wait: Retry-After in seconds (or the
// envelope's retry-after), else a second, at most rateLimitMaxWait. An error body it reads
// is put back for the caller.
func rateLimited(resp *http.Response) (time.Duration, bool) {
	if resp.StatusCode < 400 {
		return 0, false
	}
	var envelope struct {
		Code       string   `json:"code"`
		RetryAfter *float64 `json:"retry-after"`
	}
	if resp.Body != nil {
		raw, err := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
		resp.Body = &replayBody{Reader: io.MultiReader(bytes.NewReader(raw), resp.Body), Closer: resp.Body}
		if err == nil {
			_ = json.Unmarshal(raw, &envelope)
		}
	}
	if resp.StatusCode != http.StatusTooManyRequests && envelope.Code != rateLimitCode {
		return 0, false
	}
	wait := rateLimitDefaultWait
	if secs, ok := retryAfterSeconds(resp.Header.Get("Retry-After")); ok {
		wait = secs
	} else if envelope.RetryAfter != nil && *envelope.RetryAfter >= 0 {
		wait = seconds(*envelope.RetryAfter)
	}
	return min(wait, rateLimitMaxWait), true
}

// retryAfterSeconds parses a Retry-After header given in seconds (an HTTP date is not
// used by servers of this family and falls back to the default).
func retryAfterSeconds(v string) (time.Duration, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return seconds(f), true
}

// seconds converts a non-negative number of seconds, saturating far beyond any cap.
func seconds(f float64) time.Duration {
	if f > rateLimitMaxWait.Seconds() {
		return rateLimitMaxWait
	}
	return time.Duration(f * float64(time.Second))
}

// replayBody serves the bytes already read, then the rest, and closes the original body.
type replayBody struct {
	io.Reader
	io.Closer
}
