package fakeserver

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// Rate limiting as the real server applies it to authenticated API requests: per user, at
// most N requests in any window of W seconds (the real server's default is 200 in 60). It is
// off unless the configuration sets rate_limit_requests, so that specs and client test runs
// are never slowed; client developers switch it on to exercise their retry path. Windows
// are in wall-clock time whatever the virtual clock does: a client waits in real time.

// Authentication attempts are limited as on the real server (its authenticate_by_username
// rule): at most 5 password attempts for one username in 30 minutes, whether they succeed or
// not; a success forgets the attempts before it. The fake applies the rule while rate limiting
// is on.
const (
	loginAttemptsLimit  = 5
	loginAttemptsWindow = 30 * time.Minute
)

// rateLimit refuses an authenticated user's request beyond the configured rate with the real
// server's RATE_LIMIT_HIT, and tells every request where it stands in the X-RateLimit-*
// headers the real server sends.
func (s *Server) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cfg := s.cfg()
		u := handler.StateOf(r).User
		if cfg.RateLimitRequests <= 0 || u == nil {
			next.ServeHTTP(w, r)
			return
		}
		d := s.limiter.Take(u.ID, cfg.RateLimitRequests, time.Duration(cfg.RateLimitWindowSeconds)*time.Second)
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(cfg.RateLimitRequests))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(d.Reset.UnixMilli())/1000)), 10))
		if d.Allowed {
			next.ServeHTTP(w, r)
			return
		}
		handler.WriteError(w, rateLimitHit(d.Wait))
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
	if s.cfg().RateLimitRequests <= 0 {
		return func(bool) {}, nil
	}
	if d := s.logins.Take(username, loginAttemptsLimit, loginAttemptsWindow); !d.Allowed {
		return nil, rateLimitHit(d.Wait)
	}
	return func(ok bool) {
		if ok {
			s.logins.Forget(username)
		}
	}, nil
}
