package fakeserver

import (
	"sync"
	"time"

	"github.com/chatconform/chatconform/fixtures"
)

// ClockMode is how the fake's virtual clock moves.
type ClockMode string

const (
	// ClockFrozen stands still at the fixture's start time unless the control API moves it:
	// timestamps are reproducible and time limits are crossed without waiting.
	ClockFrozen ClockMode = fixtures.ClockFrozen
	// ClockWall starts at the wall time and runs with it, for clients that compare the
	// server's timestamps with their own clock. The control API can still move it.
	ClockWall ClockMode = fixtures.ClockWall
)

// startClock sets the clock for a fixture (re)load: at the fixture's start time, then
// running from the wall time when the server's mode, or else the fixture's, says so.
func (s *Server) startClock(f *fixtures.Fixture) {
	s.clock.Set(time.Unix(f.Realm.StartTime, 0))
	mode := s.clockMode
	if mode == "" {
		mode = ClockMode(f.Realm.Clock)
	}
	s.setClockMode(mode)
}

// setClockMode switches the clock: a running clock starts at the wall time; a frozen one
// stops where it is.
func (s *Server) setClockMode(m ClockMode) {
	if m == ClockWall {
		s.clock.Run()
		s.ticker.start(s.state.Tick)
		return
	}
	s.clock.Freeze()
	s.ticker.stop()
}

// ClockMode reports how the clock moves now.
func (s *Server) ClockMode() ClockMode {
	if s.clock.Running() {
		return ClockWall
	}
	return ClockFrozen
}

// wallTicker runs what falls due (reminders, upload expiry) while the clock runs by itself;
// on a frozen clock the control API's moves do it.
type wallTicker struct {
	mu   sync.Mutex
	done chan struct{}
}

// tickInterval is how often a running clock's due work is done: reminders are due to the second.
const tickInterval = time.Second

func (t *wallTicker) start(tick func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done != nil {
		return
	}
	done := make(chan struct{})
	t.done = done
	go func() {
		tk := time.NewTicker(tickInterval)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				tick()
			}
		}
	}()
}

func (t *wallTicker) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done != nil {
		close(t.done)
		t.done = nil
	}
}
