package clock

import (
	"testing"
	"time"
)

// fakeWall is a wall clock the test moves by hand.
type fakeWall struct{ t time.Time }

func (w *fakeWall) now() time.Time { return w.t }

func TestFrozenClockStandsStill(t *testing.T) {
	start := time.Unix(1000, 0)
	c := New(start)
	wall := &fakeWall{time.Unix(5000, 0)}
	c.wall = wall.now
	wall.t = wall.t.Add(time.Hour)
	if got := c.Unix(); got != 1000 {
		t.Fatalf("frozen clock moved with the wall clock: %d", got)
	}
	if got := c.Advance(10 * time.Second).Unix(); got != 1010 {
		t.Errorf("advance: %d, want 1010", got)
	}
}

func TestRunningClockFollowsTheWallClock(t *testing.T) {
	c := New(time.Unix(1000, 0))
	wall := &fakeWall{time.Unix(5000, 0)}
	c.wall = wall.now
	c.Run()
	if !c.Running() || c.Unix() != 5000 {
		t.Fatalf("after Run: running %v at %d, want running at the wall time 5000", c.Running(), c.Unix())
	}
	wall.t = wall.t.Add(90 * time.Second)
	if got := c.Unix(); got != 5090 {
		t.Errorf("90 s later: %d, want 5090", got)
	}
	// The control API can still move a running clock; it goes on running from there.
	c.Advance(time.Hour)
	wall.t = wall.t.Add(10 * time.Second)
	if got := c.Unix(); got != 5090+3600+10 {
		t.Errorf("after advancing an hour and 10 s more: %d, want %d", got, 5090+3600+10)
	}
	c.Set(time.Unix(100, 0))
	wall.t = wall.t.Add(5 * time.Second)
	if got := c.Unix(); got != 105 {
		t.Errorf("set back to 100, 5 s later: %d, want 105", got)
	}
	c.Freeze()
	wall.t = wall.t.Add(time.Hour)
	if c.Running() || c.Unix() != 105 {
		t.Errorf("after Freeze: running %v at %d, want stopped at 105", c.Running(), c.Unix())
	}
}

func TestRunningClockOnTheRealWallClock(t *testing.T) {
	c := New(time.Unix(1000, 0))
	c.Run()
	if d := time.Since(c.Now()); d < 0 || d > time.Second {
		t.Fatalf("running clock is %v away from the wall time", d)
	}
	first := c.Now()
	time.Sleep(20 * time.Millisecond)
	if !c.Now().After(first) {
		t.Errorf("running clock did not move in 20 ms")
	}
}
