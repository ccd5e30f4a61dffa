//go:build unix

package fakeserver_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has spent, user and system, all threads: on a
// machine shared with other work, wall time counts the waits for a core as well.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
