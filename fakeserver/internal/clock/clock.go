// Package clock is the fake server's virtual clock. By default time stands still unless a
// test moves it, so timestamps are reproducible and time limits can be crossed without
// sleeping; in running mode it keeps pace with the wall clock from wherever it was set, for
// clients that compare the server's timestamps with their own clock.
package clock

import (
	"sync"
	"time"
)

// Clock is a settable clock, safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time // frozen: the time; running: the time at anchor
	// running makes the clock advance with the wall clock from anchor on.
	running bool
	anchor  time.Time
	wall    func() time.Time
}

// New returns a clock stopped at start.
func New(start time.Time) *Clock { return &Clock{now: start.UTC(), wall: time.Now} }

// Now returns the current virtual time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.current()
}

func (c *Clock) current() time.Time {
	if !c.running {
		return c.now
	}
	return c.now.Add(c.wall().Sub(c.anchor))
}

// Unix returns the current virtual time in UNIX seconds.
func (c *Clock) Unix() int64 { return c.Now().Unix() }

// Set moves the clock to t (backwards too: backdating is a documented control operation).
// A running clock goes on running from t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now, c.anchor = t.UTC(), c.wall()
}

// Advance moves the clock forward by d and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now, c.anchor = c.current().Add(d), c.wall()
	return c.now
}

// Run starts the clock at the wall time and keeps it running with the wall clock.
func (c *Clock) Run() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.anchor = c.wall()
	c.now, c.running = c.anchor.UTC(), true
}

// Freeze stops the clock at the time it shows.
func (c *Clock) Freeze() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now, c.running = c.current(), false
}

// Running reports whether the clock runs with the wall clock.
func (c *Clock) Running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}
