package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// limitedServer answers the first `limited` requests with the given rate-limit answer and
// then succeeds; it records every request body.
type limitedServer struct {
	mu      sync.Mutex
	limited int
	answer  func(w http.ResponseWriter)
	bodies  []string
}

func (s *limitedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, string(body))
	n := len(s.bodies)
	s.mu.Unlock()
	if n <= s.limited {
		s.answer(w)
		return
	}
	success(w, map[string]any{"attempt": n})
}

func (s *limitedServer) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.bodies)
}

// tooMany is the real server's answer: HTTP 429, code RATE_LIMIT_HIT, Retry-After.
func tooMany(retryAfter string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		fail(w, http.StatusTooManyRequests, rateLimitCode, "API usage exceeded rate limit")
	}
}

// recordingTransport is a retryTransport whose waits are recorded instead of slept.
func recordingTransport(log io.Writer) (*retryTransport, *[]time.Duration) {
	var waits []time.Duration
	rt := newRetryTransport(nil, 5*time.Second, func() io.Writer { return log })
	rt.console = nil
	rt.sleep = func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}
	return rt, &waits
}

func TestRetryTransportWaitsOutRateLimits(t *testing.T) {
	cases := []struct {
		name      string
		limited   int
		answer    func(w http.ResponseWriter)
		wantWaits []time.Duration
	}{
		{"429 with Retry-After in seconds", 2, tooMany("2"), []time.Duration{2 * time.Second, 2 * time.Second}},
		{"429 with a fractional Retry-After", 1, tooMany("0.25"), []time.Duration{250 * time.Millisecond}},
		{"429 without Retry-After waits a second", 1, tooMany(""), []time.Duration{time.Second}},
		{"429 with an unreadable Retry-After waits a second", 1, tooMany("soon"), []time.Duration{time.Second}},
		{"a Retry-After beyond a minute is capped", 1, tooMany("3600"), []time.Duration{time.Minute}},
		{"code RATE_LIMIT_HIT on another status, retry-after from the envelope", 1, func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"result":"error","msg":"limited","code":"RATE_LIMIT_HIT","retry-after":3}`)
		}, []time.Duration{3 * time.Second}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := &limitedServer{limited: tc.limited, answer: tc.answer}
			ts := httptest.NewServer(srv)
			t.Cleanup(ts.Close)
			var log bytes.Buffer
			rt, waits := recordingTransport(&log)

			form := url.Values{"content": {"hello world"}, "to": {"[1,2]"}}.Encode()
			req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/v1/messages", strings.NewReader(form))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := (&http.Client{Transport: rt}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"result":"success"`) {
				t.Fatalf("final answer %d %s, want the success after the limit", resp.StatusCode, body)
			}
			if !slices.Equal(*waits, tc.wantWaits) {
				t.Errorf("waits %v, want %v", *waits, tc.wantWaits)
			}
			bodies := srv.seen()
			if len(bodies) != tc.limited+1 {
				t.Fatalf("server saw %d requests, want %d", len(bodies), tc.limited+1)
			}
			for i, b := range bodies {
				if b != form {
					t.Errorf("request %d carried body %q, want %q", i+1, b, form)
				}
			}
			if got := strings.Count(log.String(), "was rate limited"); got != tc.limited {
				t.Errorf("log has %d wait lines, want %d:\n%s", got, tc.limited, log.String())
			}
		})
	}
}

func TestRetryTransportGivesUp(t *testing.T) {
	srv := &limitedServer{limited: 100, answer: tooMany("1")}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	rt, waits := recordingTransport(io.Discard)

	resp, err := (&http.Client{Transport: rt}).Get(ts.URL + "/api/v1/users/me")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), rateLimitCode) {
		t.Errorf("after the last retry: %d %s, want the 429 with its body", resp.StatusCode, body)
	}
	if n := len(srv.seen()); n != rateLimitRetries+1 {
		t.Errorf("server saw %d requests, want %d", n, rateLimitRetries+1)
	}
	if len(*waits) != rateLimitRetries {
		t.Errorf("waited %d times, want %d", len(*waits), rateLimitRetries)
	}
}

func TestRetryTransportLeavesOtherErrorsAlone(t *testing.T) {
	srv := &limitedServer{limited: 1, answer: func(w http.ResponseWriter) {
		fail(w, http.StatusBadRequest, "BAD_REQUEST", "Invalid message(s)")
	}}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	rt, waits := recordingTransport(io.Discard)

	resp, err := (&http.Client{Transport: rt}).Get(ts.URL + "/api/v1/messages/1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"code":"BAD_REQUEST"`) {
		t.Errorf("answer %d %s, want the error, body intact", resp.StatusCode, body)
	}
	if n := len(srv.seen()); n != 1 || len(*waits) != 0 {
		t.Errorf("%d requests and %d waits, want 1 and 0", n, len(*waits))
	}
}

func TestRetryTransportStopsWaitingWithTheRequest(t *testing.T) {
	ts := httptest.NewServer(&limitedServer{limited: 100, answer: tooMany("30")})
	t.Cleanup(ts.Close)
	rt := newRetryTransport(nil, time.Second, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL, nil)
	start := time.Now()
	_, err := (&http.Client{Transport: rt}).Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the request's deadline", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the wait outlived the request's context")
	}
}

// TestRetryTransportTimesEachAttempt checks that the request timeout bounds each attempt,
// not the time spent waiting out a limit.
func TestRetryTransportTimesEachAttempt(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(slow.Close)
	if _, err := (&http.Client{Transport: newRetryTransport(nil, 50*time.Millisecond, nil)}).Get(slow.URL); err == nil {
		t.Error("an attempt slower than the timeout succeeded")
	}

	limited := httptest.NewServer(&limitedServer{limited: 1, answer: tooMany("0.2")})
	t.Cleanup(limited.Close)
	resp, err := (&http.Client{Transport: newRetryTransport(nil, 150*time.Millisecond, nil)}).Get(limited.URL)
	if err != nil {
		t.Fatalf("a wait longer than the timeout failed the request: %v", err)
	}
	resp.Body.Close()
}

// TestTargetClientsRetry checks that both kinds of client of a target wait out a limit:
// the httpexpect clients of specs and the setup client.
func TestTargetClientsRetry(t *testing.T) {
	srv := &limitedServer{limited: 1, answer: tooMany("0")}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	var log bytes.Buffer
	rec := &recorder{}
	tgt := &Target{URL: ts.URL, Reporter: rec, Log: &log}

	Success(tgt.Anonymous().POST("/messages").WithFormField("content", "via httpexpect").Expect())
	if f := rec.take(); len(f) > 0 {
		t.Fatalf("httpexpect client: %v", f)
	}
	srv.mu.Lock()
	srv.limited = 3 // the setup client's first request is limited too
	srv.mu.Unlock()
	if _, err := tgt.call(http.MethodPost, ts.URL+"/api/v1/messages", nil, url.Values{"content": {"via setup"}}); err != nil {
		t.Fatalf("setup client: %v", err)
	}
	want := []string{"content=via+httpexpect", "content=via+httpexpect", "content=via+setup", "content=via+setup"}
	if got := srv.seen(); !slices.Equal(got, want) {
		t.Errorf("bodies %q, want %q", got, want)
	}
	if got := strings.Count(log.String(), "was rate limited"); got != 2 {
		t.Errorf("log has %d wait lines, want 2:\n%s", got, log.String())
	}
}

// Each wait is printed on the console as it begins, naming the request, the user and the spec.
func TestRetryTransportPrintsEachWait(t *testing.T) {
	srv := &limitedServer{limited: 2, answer: tooMany("2")}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	rt, _ := recordingTransport(io.Discard)
	var console bytes.Buffer
	rt.console = &console
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/v1/users/me", nil)
	req.SetBasicAuth("member@chat.example.test", "MemberKey00000000000000000000004")
	req.Header.Set(SpecHeader, "some spec")
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	lines := strings.Split(strings.TrimSpace(console.String()), "\n")
	want := "chatconform: GET " + ts.URL + "/api/v1/users/me as member@chat.example.test was rate limited (HTTP 429): waiting 2s before retry %d of 5 [some spec]"
	if len(lines) != 2 || lines[0] != fmt.Sprintf(want, 1) || lines[1] != fmt.Sprintf(want, 2) {
		t.Errorf("console:\n%s\nwant two lines like %q", console.String(), fmt.Sprintf(want, 1))
	}
	if strings.Contains(console.String(), "MemberKey") {
		t.Errorf("the console shows the API key: %s", console.String())
	}
}
