// Package testctx gives tests that drive other programs (Docker, Node.js, a built binary) a
// context whose end is the test run's own, not a budget of their own: how long such work takes
// grows with the machine's load, and only go test's -timeout tells a hang from a busy machine.
package testctx

import (
	"context"
	"testing"
	"time"
)

// margin is what the test keeps after its context ends, to report and clean up before go test
// stops the whole binary at its deadline.
const margin = time.Minute

// Context ends when the test does, or a minute before go test's deadline, whichever comes first.
func Context(t *testing.T) context.Context {
	t.Helper()
	ctx := t.Context()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-margin))
		t.Cleanup(cancel)
	}
	return ctx
}
