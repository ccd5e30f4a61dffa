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

// Authentication attempts are limited as on the real server (its authenticate_by_username
// rule): at most 5 password attempts for one username in 30 minutes, whether they succeed or
// not; a success forgets the attempts before it. The fake applies the rule while rate limiting
// is on.
const (
	loginAttemptsLimit  = 5
	loginAttemptsWindow = 30 * time.Minute
)

// rateLimiter keeps, per key (a user, or the username of a login), the wall times of the
// requests in the current window.
type rateLimiter[K comparable] struct {
	mu   sync.Mutex
	seen map[K][]time.Time
	// rule is the limit and window the log was kept under; a new rule starts afresh.
	rule [2]int
	// sweepAt is the number of keys at which those whose requests all left the window are
	// dropped, so that keys used once (usernames nobody has) do not pile up.
	sweepAt int
	now     func() time.Time // the wall clock; replaced in tests
}

// reset forgets every request: a reset of the fake starts every user's budget afresh.
func (l *rateLimiter[K]) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = nil
}

// forget drops the requests of one key (a login that succeeded).
func (l *rateLimiter[K]) forget(key K) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.seen, key)
}

// sweep drops the keys whose requests have all left the window, at a size that doubles with
// what stays, so that its cost per request stays constant. The caller holds l.mu.
func (l *rateLimiter[K]) sweep(now time.Time, window time.Duration) {
	if len(l.seen) < max(l.sweepAt, 1024) {
		return
	}
	for k, log := range l.seen {
		if len(log) == 0 || !log[len(log)-1].Add(window).After(now) {
			delete(l.seen, k)
		}
	}
	l.sweepAt = 2 * len(l.seen)
}

// rateDecision is the limiter's answer for one request.
type rateDecision struct {
	allowed   bool
	remaining int
	reset     time.Time     // when every logged request has left the window
	wait      time.Duration // for a refused request: until the oldest leaves the window
}

// take logs a request of key under the rule (limit requests per window) unless that would
// exceed it. A refused request is not logged, as on the real server.
func (l *rateLimiter[K]) take(key K, limit int, window time.Duration) rateDecision {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if l.now != nil {
		now = l.now()
	}
	if rule := [2]int{limit, int(window / time.Second)}; l.seen == nil || l.rule != rule {
		l.seen, l.rule = map[K][]time.Time{}, rule
	}
	l.sweep(now, window)
	log := l.seen[key]
	for len(log) > 0 && !log[0].Add(window).After(now) {
		log = log[1:]
	}
	d := rateDecision{allowed: len(log) < limit}
	if d.allowed {
		log = append(log, now)
	} else {
		d.wait = log[0].Add(window).Sub(now)
	}
	l.seen[key] = log
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
		writeError(w, rateLimitHit(d.wait))
	})
}

// rateLimitHit is the real server's refusal of a request over a limit. It gives the wait in
// seconds, fractions included, in the body's retry-after and (writeError) in Retry-After.
func rateLimitHit(wait time.Duration) *apierr.Error {
	return apierr.New(http.StatusTooManyRequests, "RATE_LIMIT_HIT", "API usage exceeded rate limit").With("retry-after", wait.Seconds())
}

// loginAttempt counts a password attempt for username while rate limiting is on, and refuses
// one over the real server's limit; done tells it whether the attempt succeeded.
func (s *Server) loginAttempt(username string) (done func(ok bool), err error) {
	if s.Config().RateLimitRequests <= 0 {
		return func(bool) {}, nil
	}
	if d := s.logins.take(username, loginAttemptsLimit, loginAttemptsWindow); !d.allowed {
		return nil, rateLimitHit(d.wait)
	}
	return func(ok bool) {
		if ok {
			s.logins.forget(username)
		}
	}, nil
}
