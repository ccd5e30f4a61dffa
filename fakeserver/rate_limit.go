package fakeserver

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// Rate limiting as the real server applies it to authenticated API requests: per user, at
// most N requests in any window of W seconds (the real server's default is 200 in 60). It is
// off unless the configuration sets rate_limit_requests, so that specs and client test runs
// are never slowed; client developers switch it on to exercise their retry path. Windows
// are in wall-clock time whatever the virtual clock does: a client waits in real time.

// DefaultRateLimitWindowSeconds is the real server's window.
const DefaultRateLimitWindowSeconds = 60

// rateLimiter keeps, per user, the wall times of the requests in the current window.
type rateLimiter struct {
	mu   sync.Mutex
	seen map[int][]time.Time
	// rule is the limit and window the log was kept under; a new rule starts afresh.
	rule [2]int
	now  func() time.Time // the wall clock; replaced in tests
}

// reset forgets every request: a reset of the fake starts every user's budget afresh.
func (l *rateLimiter) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = nil
}

// rateDecision is the limiter's answer for one request.
type rateDecision struct {
	allowed   bool
	remaining int
	reset     time.Time     // when every logged request has left the window
	wait      time.Duration // for a refused request: until the oldest leaves the window
}

// take logs a request of user under the rule (limit requests per window) unless that would
// exceed it. A refused request is not logged, as on the real server.
func (l *rateLimiter) take(user, limit int, window time.Duration) rateDecision {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if l.now != nil {
		now = l.now()
	}
	if rule := [2]int{limit, int(window / time.Second)}; l.seen == nil || l.rule != rule {
		l.seen, l.rule = map[int][]time.Time{}, rule
	}
	log := l.seen[user]
	for len(log) > 0 && !log[0].Add(window).After(now) {
		log = log[1:]
	}
	d := rateDecision{allowed: len(log) < limit}
	if d.allowed {
		log = append(log, now)
	} else {
		d.wait = log[0].Add(window).Sub(now)
	}
	l.seen[user] = log
	d.remaining = limit - len(log)
	d.reset = now
	if len(log) > 0 {
		d.reset = log[len(log)-1].Add(window)
	}
	return d
}

// rateLimit refuses an authenticated user's request beyond the configured rate with the real
// server's RATE_LIMIT_HIT, and tells every request where it stands in the X-RateLimit-*
// headers the real server sends.
func (s *Server) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cfg := s.Config()
		u := stateOf(r).user
		if cfg.RateLimitRequests <= 0 || u == nil {
			next.ServeHTTP(w, r)
			return
		}
		d := s.limiter.take(u.ID, cfg.RateLimitRequests, time.Duration(cfg.RateLimitWindowSeconds)*time.Second)
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(cfg.RateLimitRequests))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(d.remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(d.reset.UnixMilli())/1000)), 10))
		if d.allowed {
			next.ServeHTTP(w, r)
			return
		}
		// The real server gives the wait in seconds, fractions included, in the header and
		// in the body's retry-after.
		secs := d.wait.Seconds()
		h.Set("Retry-After", strconv.FormatFloat(secs, 'f', -1, 64))
		writeError(w, apierr.New(http.StatusTooManyRequests, "RATE_LIMIT_HIT", "API usage exceeded rate limit").With("retry-after", secs))
	})
}
