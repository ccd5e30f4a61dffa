package httpx

import (
	"fmt"
	"testing"
	"time"
)

// TestRateLimiterWindow: at most N requests in any window, refused requests not counted, the
// wait until the oldest leaves the window, and a new rule starting afresh.
func TestRateLimiterWindow(t *testing.T) {
	now := time.Unix(1000, 0)
	l := &Limiter[int]{now: func() time.Time { return now }}
	window := 10 * time.Second
	at := func(offset time.Duration) { now = time.Unix(1000, 0).Add(offset) }

	for i, off := range []time.Duration{0, 2 * time.Second, 4 * time.Second} {
		at(off)
		d := l.Take(7, 3, window)
		if !d.Allowed || d.Remaining != 2-i || !d.Reset.Equal(now.Add(window)) {
			t.Fatalf("request %d: %+v, want allowed with %d remaining, reset at %v", i+1, d, 2-i, now.Add(window))
		}
	}
	at(5 * time.Second)
	d := l.Take(7, 3, window)
	if d.Allowed || d.Remaining != 0 || d.Wait != 5*time.Second || !d.Reset.Equal(time.Unix(1014, 0)) {
		t.Fatalf("fourth request: %+v, want refused, waiting 5 s for the first to leave the window", d)
	}
	if d := l.Take(8, 3, window); !d.Allowed || d.Remaining != 2 {
		t.Errorf("another user: %+v, want a budget of its own", d)
	}
	at(10 * time.Second) // the first request leaves the window; the refused one never counted
	if d := l.Take(7, 3, window); !d.Allowed || d.Remaining != 0 {
		t.Errorf("after the first left the window: %+v, want allowed with 0 remaining", d)
	}
	if d := l.Take(7, 5, window); !d.Allowed || d.Remaining != 4 {
		t.Errorf("under a new rule: %+v, want a fresh budget", d)
	}
}

// TestRateLimiterForgetsIdleKeys: keys whose requests all left the window (usernames tried
// once) are dropped as the map grows, keys still in their window are kept, and forget drops
// one key's requests.
func TestRateLimiterForgetsIdleKeys(t *testing.T) {
	now := time.Unix(1000, 0)
	l := &Limiter[string]{now: func() time.Time { return now }}
	for i := 0; i < 5000; i++ {
		l.Take(fmt.Sprint("once-", i), 5, time.Minute)
	}
	l.Take("kept", 5, time.Minute)
	now = now.Add(59 * time.Second)
	l.Take("kept", 5, time.Minute)
	// The first 5000 keys and kept's first request leave the window; the map then passes 8192
	// keys, the size at which it is swept next.
	now = now.Add(2 * time.Second)
	for i := 0; i < 4000; i++ {
		l.Take(fmt.Sprint("later-", i), 5, time.Minute)
	}
	if len(l.seen) != 4001 {
		t.Errorf("%d keys kept, want the 5000 idle ones dropped (4001 left)", len(l.seen))
	}
	if d := l.Take("kept", 5, time.Minute); d.Remaining != 3 || !d.Allowed {
		t.Errorf("a key in its window: %+v, want its request in the window still counted", d)
	}
	l.Forget("kept")
	if d := l.Take("kept", 5, time.Minute); d.Remaining != 4 {
		t.Errorf("after forget: %+v, want a fresh budget", d)
	}
}

// TestRateLimiterBoundsKeys: past MaxKeys, a new key takes the place of another, so that the
// keys kept never pass the bound; a key kept keeps its count.
func TestRateLimiterBoundsKeys(t *testing.T) {
	now := time.Unix(1000, 0)
	l := &Limiter[string]{MaxKeys: 100, now: func() time.Time { return now }}
	for range 5 {
		l.Take("tried", 5, time.Hour)
	}
	dropped := false
	for i := range 10_000 {
		l.Take(fmt.Sprint("new-", i), 5, time.Hour)
		if len(l.seen) > l.MaxKeys {
			t.Fatalf("%d keys kept after %d new ones, want at most %d", len(l.seen), i+1, l.MaxKeys)
		}
		if _, ok := l.seen["tried"]; !ok {
			dropped = true
		} else if d := l.Take("tried", 5, time.Hour); d.Allowed {
			t.Fatalf("a key kept lost its count: %+v", d)
		}
	}
	if !dropped {
		t.Error("10,000 new keys never took the place of the one tried first")
	}
}
