package pipeline

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// Rate limiting as the real server applies it to authenticated API requests: per user, at
// most N requests in any window of W seconds (the real server's default is 200 in 60). It is
// off unless the configuration sets rate_limit_requests, so that specs and client test runs
// are never slowed; client developers switch it on to exercise their retry path. Windows
// are in wall-clock time whatever the virtual clock does: a client waits in real time.

// rateLimit refuses an authenticated user's request beyond the configured rate with the real
// server's RATE_LIMIT_HIT, and tells every request where it stands in the X-RateLimit-*
// headers the real server sends.
func (p *Pipeline) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cfg := p.config()
		u := handler.StateOf(r).User
		if cfg.RateLimitRequests <= 0 || u == nil {
			next.ServeHTTP(w, r)
			return
		}
		d := p.limiter.Take(u.ID, cfg.RateLimitRequests, time.Duration(cfg.RateLimitWindowSeconds)*time.Second)
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(cfg.RateLimitRequests))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(d.Reset.UnixMilli())/1000)), 10))
		if d.Allowed {
			next.ServeHTTP(w, r)
			return
		}
		handler.WriteError(w, handler.RateLimitHit(d.Wait))
	})
}
