package serve

import (
	"os"
	"runtime/debug"
)

// DefaultGCPercent is the fake binary's garbage-collection target: the heap may grow by 40% of
// the live heap between collections, where the Go runtime's default lets it double. A
// long-running fake then stays within twice its live heap in resident memory (1.92 times at
// 10^5 stored messages; 2.09 at 50, 2.4 with the default), at the cost of collecting 2.5 times
// as often as the default (docs/performance.md, "Memory").
const DefaultGCPercent = 40

// memoryPolicy sets the collector's target: percent from -gc-percent when given (a negative
// one turns collection off, as GOGC=off does), else $GOGC when the environment sets it (the
// runtime has read it), else DefaultGCPercent.
func memoryPolicy(percent int, given bool) {
	if !given && os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(percent)
}
