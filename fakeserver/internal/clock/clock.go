// Package clock is the fake server's virtual clock. Time stands still unless a test moves
// it, so timestamps are reproducible and time limits can be crossed without sleeping.
package clock

import (
	"sync"
	"time"
)

// Clock is a settable clock, safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a clock stopped at start.
func New(start time.Time) *Clock { return &Clock{now: start.UTC()} }

// Now returns the current virtual time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Unix returns the current virtual time in UNIX seconds.
func (c *Clock) Unix() int64 { return c.Now().Unix() }

// Set moves the clock to t (backwards too: backdating is a documented control operation).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t.UTC()
}

// Advance moves the clock forward by d and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}
