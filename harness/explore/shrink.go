package explore

import (
	"context"
	"slices"
	"time"
)

// maxShrinkRuns bounds the replays one finding's shrinking may take.
const maxShrinkRuns = 80

// shrink makes a finding's sequence minimal by delta debugging over its steps: it drops
// chunks of steps, halving the chunk size, as long as the shorter sequence still shows a
// difference in the same field. The finding returned is the shortest sequence's.
func (e *Explorer) shrink(ctx context.Context, f Finding) Finding {
	runs := 0
	// shows replays steps and tells whether they show the same difference; on a replay
	// that does, f takes its sequence (cut at the difference) and exchanges.
	shows := func(steps []Step) bool {
		if runs >= maxShrinkRuns || ctx.Err() != nil {
			return false
		}
		runs++
		out, err := e.sequence(ctx, f.Seed, steps, time.Time{}, false)
		if err != nil || out.diff == nil || out.diff.key() != f.Difference.key() {
			return false
		}
		f = out.finding(f.Seed)
		return true
	}
	steps := slices.Clone(f.Steps)
	n := 2
	for len(steps) >= 2 {
		chunk := (len(steps) + n - 1) / n
		reduced := false
		for start := 0; start < len(steps); start += chunk {
			candidate := slices.Concat(steps[:start], steps[min(start+chunk, len(steps)):])
			if len(candidate) > 0 && shows(candidate) {
				steps = slices.Clone(f.Steps)
				n = max(n-1, 2)
				reduced = true
				break
			}
		}
		if !reduced {
			if n >= len(steps) {
				break
			}
			n = min(n*2, len(steps))
		}
	}
	// A last try with the last step alone, the commonest minimal sequence.
	if len(f.Steps) > 1 {
		shows(f.Steps[len(f.Steps)-1:])
	}
	return f
}
