package realserver_test

import (
	"context"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/explore"
)

// TestExploreAgainstRealServerBehaviour runs chatconform explore against the same double as
// the suite: a right server whose choices are the real server's, with no clock capability.
// Every difference is a field the table wrongly determines. The double's busy client is left
// out: explore compares the cast's event queues, which another client's traffic to the same
// accounts changes (docs/explore.md, "What it cannot see").
// CHATCONFORM_EXPLORE_SEQUENCES sets how many sequences of 150 steps (default 2: the long runs are by hand, docs/explore.md).
func TestExploreAgainstRealServerBehaviour(t *testing.T) {
	if testing.Short() {
		t.Skip("explores hundreds of steps one at a time")
	}
	sequences := 2
	if n, err := strconv.Atoi(os.Getenv("CHATCONFORM_EXPLORE_SEQUENCES")); err == nil && n > 0 {
		sequences = n
	}
	srv, fx := startDouble(t)
	owner, _ := fx.UserByRole(fixtures.RoleOwner)

	// Every capability but the clock, as in the suite's run: the real server's path.
	target, err := harness.ConnectLogging(harness.Config{URL: srv.URL, Owner: harness.Credentials{Email: owner.Email, APIKey: owner.APIKey},
		Capabilities: []string{"config", "reset", "fixture", "journal", "vcall-token", "batch"}, RequestTimeout: 10 * time.Second, ReportDir: t.TempDir()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	target.Log = io.Discard
	// The table's lines in the document are the explore package's test to check, as the CLI
	// leaves them.
	table, err := explore.LoadTable(nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &explore.Explorer{Target: target, Reference: explore.Fake, Table: table,
		Options: explore.Options{Seed: 300, Steps: 150, Sequences: sequences, Tolerance: 3}}
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d sequences, %d steps in %.1fs", res.Sequences, res.Steps, res.Seconds)
	for _, g := range res.Gaps {
		t.Errorf("field without a row in the field table: %s", g)
	}
	for _, f := range res.Findings {
		last := f.Steps[len(f.Steps)-1]
		t.Errorf("difference against the real server's behaviour: %s %s (actor %s): target %s, reference %s; %d steps, last %s %s %s %v",
			f.Difference.Reply, f.Difference.Path, f.Difference.Actor, f.Difference.Target, f.Difference.Reference, len(f.Steps), last.Actor, last.Method, last.Path, last.Params)
	}
}
