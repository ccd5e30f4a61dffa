package explore_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/explore"
)

// connect starts a fake as a target, as the runner does without a URL, and connects to it.
func connect(t *testing.T, url string, owner harness.Credentials) *harness.Target {
	t.Helper()
	target, err := harness.ConnectLogging(harness.Config{URL: url, Owner: owner, RequestTimeout: time.Minute, ReportDir: t.TempDir()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	target.Log = io.Discard
	return target
}

func fixtureOwner() harness.Credentials {
	f := fixtures.Default()
	owner, _ := f.UserByRole(fixtures.RoleOwner)
	return harness.Credentials{Email: owner.Email, APIKey: owner.APIKey}
}

func table(t *testing.T) *explore.Table {
	t.Helper()
	doc, err := os.ReadFile("../../docs/chat-api.md")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := explore.LoadTable(doc)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestExploreFindsNothingAgainstTheReference runs explore against the fake itself, at its
// newest level and at an older one: every difference is a field the table wrongly determines,
// or a fake that answers alike requests differently; every gap is a field the table lacks.
func TestExploreFindsNothingAgainstTheReference(t *testing.T) {
	if testing.Short() {
		t.Skip("explores hundreds of steps one at a time: the unit run's, not the race detector's")
	}
	t.Parallel()
	for _, c := range []struct {
		seed      uint64
		level     int
		sequences int
	}{{1, 0, 10}, {2, 250, 6}} {
		t.Run(fmt.Sprintf("seed %d level %d", c.seed, c.level), func(t *testing.T) {
			var opts []fakeserver.Option
			if c.level > 0 {
				opts = append(opts, fakeserver.WithFeatureLevel(c.level))
			}
			ts := fakeserver.NewTestServer(opts...)
			defer ts.Close()
			target := connect(t, ts.URL, fixtureOwner())
			e := &explore.Explorer{Target: target, Reference: explore.Fake, Table: table(t),
				Options: explore.Options{Seed: c.seed, Steps: 80, Sequences: c.sequences, Tolerance: 3, Shrink: true}}
			res, err := e.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d sequences, %d steps (%d succeeded) in %.1fs", res.Sequences, res.Steps, res.Succeeded, res.Seconds)
			if res.Steps < 50 {
				t.Errorf("only %d steps: the exploration checked little", res.Steps)
			}
			// Three steps in four are clean: most succeed and build the state deep rules need.
			if res.Succeeded*100 < res.Steps*60 {
				t.Errorf("%d of %d steps succeeded on the reference: the generator breaks too many preconditions to build state", res.Succeeded, res.Steps)
			}
			for _, g := range res.Gaps {
				t.Errorf("field without a row in the field table: %s", g)
			}
			// Its reports say so: every requirement it compared passed, under the profile explore.
			_, conf := writeReports(t, target, e.Options, res, e.Table)
			profileMustBe(t, conf, "success")
			if conf.Counts.Passed != len(res.Checked) || len(res.Checked) == 0 {
				t.Errorf("the reports pass %d requirements, the run compared the fields of %d", conf.Counts.Passed, len(res.Checked))
			}
			for _, f := range res.Findings {
				t.Errorf("difference against the reference itself: %s %s (actor %s): target %s, reference %s; %d steps, last %+v",
					f.Difference.Reply, f.Difference.Path, f.Difference.Actor, f.Difference.Target, f.Difference.Reference, len(f.Steps), f.Steps[len(f.Steps)-1])
			}
		})
	}
}
