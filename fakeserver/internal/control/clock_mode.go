package control

import (
	"sync"
	"time"

	"github.com/chatconform/chatconform/fixtures"
)

// SetClockMode switches the clock: to fixtures.ClockWall, running from the wall time on;
// to any other mode, frozen where it is.
func (s *Service) SetClockMode(mode string) {
	if mode == fixtures.ClockWall {
		s.clock.Run()
		s.ticker.start(s.state.Tick)
		return
	}
	s.clock.Freeze()
	s.ticker.stop()
}

// ClockMode reports how the clock moves now: fixtures.ClockWall or fixtures.ClockFrozen.
func (s *Service) ClockMode() string {
	if s.clock.Running() {
		return fixtures.ClockWall
	}
	return fixtures.ClockFrozen
}

// Close stops the ticker of a running clock (the Server's Close).
func (s *Service) Close() { s.ticker.stop() }

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
