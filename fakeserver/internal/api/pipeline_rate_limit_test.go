package api_test

// Rate limiting through the control API: off by default, then the real server's 429
// RATE_LIMIT_HIT with Retry-After and the X-RateLimit-* headers.

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestRateLimitOffByDefault(t *testing.T) {
	ts := newServer(t)
	for i := 0; i < 250; i++ { // more than the real server's 200 a minute
		res := get(t, ts.URL, memberAuth, "/api/v1/users/me", "")
		if res.status != http.StatusOK {
			t.Fatalf("request %d: HTTP %d %s", i+1, res.status, res)
		}
		if i == 0 && res.header.Get("X-RateLimit-Limit") != "" {
			t.Errorf("X-RateLimit-Limit %q without rate limiting", res.header.Get("X-RateLimit-Limit"))
		}
	}
}

func TestRateLimitHit(t *testing.T) {
	ts := newServer(t)
	cfg := evPatchConfig(t, ts.URL, "rate_limit_requests", "3")
	if cfg["rate_limit_requests"] != float64(3) || cfg["rate_limit_window_seconds"] != float64(60) {
		t.Fatalf("config %v, want 3 requests in the default 60 s", cfg)
	}
	start := time.Now()
	for i := 1; i <= 3; i++ {
		res := get(t, ts.URL, memberAuth, "/api/v1/users/me", "")
		requireSuccess(t, "request within the limit", res)
		if got := res.header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(3-i) || res.header.Get("X-RateLimit-Limit") != "3" {
			t.Errorf("request %d: limit %q remaining %q, want 3 and %d", i, res.header.Get("X-RateLimit-Limit"), got, 3-i)
		}
		reset, err := strconv.ParseInt(res.header.Get("X-RateLimit-Reset"), 10, 64)
		if err != nil || reset < start.Unix()+60 || reset > time.Now().Unix()+61 {
			t.Errorf("request %d: X-RateLimit-Reset %q, want the UNIX time a minute after it", i, res.header.Get("X-RateLimit-Reset"))
		}
	}
	res := get(t, ts.URL, memberAuth, "/api/v1/users/me", "")
	if res.status != http.StatusTooManyRequests || res.env["result"] != "error" || res.env["code"] != "RATE_LIMIT_HIT" ||
		res.env["msg"] != "API usage exceeded rate limit" {
		t.Fatalf("fourth request: HTTP %d %s, want 429 RATE_LIMIT_HIT", res.status, res)
	}
	wait, _ := res.env["retry-after"].(float64)
	header, err := strconv.ParseFloat(res.header.Get("Retry-After"), 64)
	if wait <= 55 || wait > 60 || err != nil || header != wait {
		t.Errorf("retry-after %v, header Retry-After %q: want the seconds until the first request leaves the window, in both", res.env["retry-after"], res.header.Get("Retry-After"))
	}
	if res.header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("refused request: X-RateLimit-Remaining %q, want 0", res.header.Get("X-RateLimit-Remaining"))
	}
	// Per user: others keep their budget; the control API is never limited.
	requireSuccess(t, "another user", get(t, ts.URL, ownerAuth, "/api/v1/users/me", ""))
	requireSuccess(t, "the control API", get(t, ts.URL, "", "/_fake/clock", ""))
	// Off again: no limit and no headers.
	evPatchConfig(t, ts.URL, "rate_limit_requests", "0")
	res = get(t, ts.URL, memberAuth, "/api/v1/users/me", "")
	requireSuccess(t, "after switching rate limiting off", res)
	if res.header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("X-RateLimit-Limit %q after switching rate limiting off", res.header.Get("X-RateLimit-Limit"))
	}
}

func TestRateLimitWindowPasses(t *testing.T) {
	ts := newServer(t)
	evPatchConfig(t, ts.URL, "rate_limit_requests", "1", "rate_limit_window_seconds", "1")
	requireSuccess(t, "first", get(t, ts.URL, memberAuth, "/api/v1/users/me", ""))
	res := get(t, ts.URL, memberAuth, "/api/v1/users/me", "")
	if res.status != http.StatusTooManyRequests {
		t.Fatalf("second request in the window: HTTP %d %s, want 429", res.status, res)
	}
	time.Sleep(time.Duration(res.env["retry-after"].(float64)*float64(time.Second)) + 20*time.Millisecond)
	requireSuccess(t, "after waiting Retry-After", get(t, ts.URL, memberAuth, "/api/v1/users/me", ""))
	// That request filled the window again. A reset restores the configuration of the fixture,
	// no rate limiting, and forgets the requests: the same limit set again within the window
	// starts with a full budget.
	requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset"}))
	for i := 0; i < 3; i++ {
		requireSuccess(t, "after a reset", get(t, ts.URL, memberAuth, "/api/v1/users/me", ""))
	}
	evPatchConfig(t, ts.URL, "rate_limit_requests", "1", "rate_limit_window_seconds", "1")
	requireSuccess(t, "the same limit after a reset", get(t, ts.URL, memberAuth, "/api/v1/users/me", ""))
}

// TestPasswordAttemptsLimited: while rate limiting is on, a username gets 5 password attempts
// in 30 minutes, as on the real server: the 6th is refused with RATE_LIMIT_HIT even with the
// right password, other usernames keep their attempts, and a success forgets the failures
// before it. With rate limiting off attempts are never limited.
func TestPasswordAttemptsLimited(t *testing.T) {
	owner, _ := defaultFixture.UserByRole("owner")
	member, _ := defaultFixture.UserByRole("member")
	login := func(ts string, email, password string) response {
		return post(t, ts, "", "/api/v1/fetch_api_key", "username", email, "password", password)
	}
	failures := func(ts, email string, n int) {
		t.Helper()
		for i := 1; i <= n; i++ {
			if res := login(ts, email, "wrong"); res.status == http.StatusTooManyRequests || res.env["result"] != "error" {
				t.Fatalf("%s, wrong password %d of %d: HTTP %d %s, want an authentication error", email, i, n, res.status, res)
			}
		}
	}

	off := newServer(t)
	failures(off.URL, owner.Email, 20)
	requireSuccess(t, "rate limiting off: the right password after 20 wrong ones", login(off.URL, owner.Email, owner.Password))

	ts := newServer(t)
	evPatchConfig(t, ts.URL, "rate_limit_requests", "1000")
	failures(ts.URL, owner.Email, 5)
	res := login(ts.URL, owner.Email, owner.Password)
	wait, _ := res.env["retry-after"].(float64)
	header, err := strconv.ParseFloat(res.header.Get("Retry-After"), 64)
	if res.status != http.StatusTooManyRequests || res.env["code"] != "RATE_LIMIT_HIT" || wait < 1790 || wait > 1800 || err != nil || header != wait {
		t.Fatalf("the 6th attempt, with the right password: HTTP %d %s (Retry-After %q), want 429 RATE_LIMIT_HIT for the 30 minutes' rest",
			res.status, res, res.header.Get("Retry-After"))
	}
	failures(ts.URL, member.Email, 4)
	requireSuccess(t, "another username", login(ts.URL, member.Email, member.Password))
	failures(ts.URL, member.Email, 5) // the success forgot the four failures before it
	if res := login(ts.URL, member.Email, member.Password); res.status != http.StatusTooManyRequests {
		t.Errorf("the member's 6th attempt after the success: HTTP %d %s, want 429", res.status, res)
	}
	requireSuccess(t, "reset", post(t, ts.URL, "", "/_fake/reset"))
	evPatchConfig(t, ts.URL, "rate_limit_requests", "1000")
	requireSuccess(t, "after a reset", login(ts.URL, owner.Email, owner.Password))
}
