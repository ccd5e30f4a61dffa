package serve

import (
	"runtime/debug"
	"testing"
)

// TestMemoryPolicy: the binary collects at DefaultGCPercent unless -gc-percent says otherwise,
// and leaves a $GOGC of the environment alone unless the flag is given.
func TestMemoryPolicy(t *testing.T) {
	const before = 77 // neither the default nor any flag value below
	defer debug.SetGCPercent(debug.SetGCPercent(before))
	for _, tc := range []struct {
		name    string
		gogc    string
		percent int
		given   bool
		want    int
	}{
		{"the default", "", DefaultGCPercent, false, DefaultGCPercent},
		{"the flag", "", 30, true, 30},
		{"collection off by the flag", "", -1, true, -1},
		{"$GOGC without the flag", "200", DefaultGCPercent, false, before},
		{"the flag over $GOGC", "200", 40, true, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			debug.SetGCPercent(before)
			memoryPolicy(tc.percent, tc.given)
			if got := debug.SetGCPercent(before); got != tc.want {
				t.Errorf("GC percent %d, want %d", got, tc.want)
			}
		})
	}
}
