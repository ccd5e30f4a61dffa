package httpx

import (
	"sync"
	"time"
)

// Limiter keeps, per key (a user, or the username of a login), the wall times of the
// requests in the current window.
type Limiter[K comparable] struct {
	// MaxKeys bounds the keys kept (0: no bound). A new key past it takes the place of
	// another, chosen at random: the limiter's memory stays bounded however many keys are
	// tried, and dropping a key a client is trying to exhaust takes about MaxKeys others.
	MaxKeys int

	mu   sync.Mutex
	seen map[K][]time.Time
	// rule is the limit and window the log was kept under; a new rule starts afresh.
	rule [2]int
	// sweepAt is the number of keys at which those whose requests all left the window are
	// dropped, so that keys used once (usernames nobody has) do not pile up.
	sweepAt int
	now     func() time.Time // the wall clock; replaced in tests
}

// Reset forgets every request: a reset of the fake starts every user's budget afresh.
func (l *Limiter[K]) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = nil
}

// Forget drops the requests of one key (a login that succeeded).
func (l *Limiter[K]) Forget(key K) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.seen, key)
}

// sweep drops the keys whose requests have all left the window, at a size that doubles with
// what stays, so that its cost per request stays constant. The caller holds l.mu.
func (l *Limiter[K]) sweep(now time.Time, window time.Duration) {
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

// Decision is the limiter's answer for one request.
type Decision struct {
	Allowed   bool
	Remaining int
	Reset     time.Time     // when every logged request has left the window
	Wait      time.Duration // for a refused request: until the oldest leaves the window
}

// Take logs a request of key under the rule (limit requests per window) unless that would
// exceed it. A refused request is not logged, as on the real server.
func (l *Limiter[K]) Take(key K, limit int, window time.Duration) Decision {
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
	log, known := l.seen[key]
	if !known && l.MaxKeys > 0 && len(l.seen) >= l.MaxKeys {
		for other := range l.seen { // map order: a random key
			delete(l.seen, other)
			break
		}
	}
	for len(log) > 0 && !log[0].Add(window).After(now) {
		log = log[1:]
	}
	d := Decision{Allowed: len(log) < limit}
	if d.Allowed {
		log = append(log, now)
	} else {
		d.Wait = log[0].Add(window).Sub(now)
	}
	l.seen[key] = log
	d.Remaining = limit - len(log)
	d.Reset = now
	if len(log) > 0 {
		d.Reset = log[len(log)-1].Add(window)
	}
	return d
}
