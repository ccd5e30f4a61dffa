package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/explore"
)

// exploreSeed is the fixed seed of the explore column: the same sequences for every entry.
const exploreSeed = 1

// ExploreResult is one entry's run against chatconform explore alone.
type ExploreResult struct {
	Entry
	// Outcome: killed (a mutant explore told from the reference), survived, passed (a
	// variant explore found nothing in), failed (a variant it found a difference in: explore
	// is unsound there), broken.
	Outcome Outcome `json:"outcome"`
	// Attributed says whether a finding names one of the entry's requirements.
	Attributed bool `json:"attributed"`
	// Findings are the fields that differed, with their requirements.
	Findings []string `json:"findings,omitempty"`
	Reached  bool     `json:"reached"`
	// Masked are the fields ("reply path") the table lets pass whose values differed from the
	// reference's, less those that differ on the unmutated fake as well.
	Masked  []string `json:"masked,omitempty"`
	Steps   int      `json:"steps"`
	Seconds float64  `json:"seconds"`
	Error   string   `json:"error,omitempty"`
}

// columnBudget bounds each entry's exploration: by time, or by a number of sequences, which
// gives every entry the same steps on any machine, however loaded.
type columnBudget struct {
	time      time.Duration
	sequences int
}

func (b columnBudget) String() string {
	if b.sequences > 0 {
		return fmt.Sprintf("%d sequences of at most 150 steps", b.sequences)
	}
	return b.time.String()
}

// exploreAll runs every entry against explore alone, jobs at once, each within budget, and
// writes mutants-explore.md and mutants-explore.json into out. Its status is 0 when no
// variant showed a difference (explore is sound on them), 1 otherwise, 2 on a failed build.
func exploreAll(ctx context.Context, entries []Entry, jobs int, budget columnBudget, out string) int {
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	work, err := os.MkdirTemp("", "mutants-explore-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "fakeserver-mutants")
	cmd := exec.CommandContext(ctx, "go", "build", "-tags", "mutants", "-o", bin, "./cmd/fakeserver")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "mutants: building the fake: %v\n%s", err, b)
		return 2
	}
	table, err := explore.LoadTable(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	// The unmutated fake at each level the entries run at: the masked fields that differ there
	// too (a random queue ID) say nothing of an entry.
	// They run jobs at once, as the entries do after them.
	baseline := map[int][]string{}
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(jobs, 1))
	var mu sync.Mutex
	for _, e := range entries {
		if _, done := baseline[e.Level]; done {
			continue
		}
		baseline[e.Level] = nil
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			masked := exploreOne(ctx, bin, work, table, Entry{Level: e.Level}, budget).Masked
			mu.Lock()
			baseline[e.Level] = masked
			mu.Unlock()
		}()
	}
	wg.Wait()
	results := make([]ExploreResult, len(entries))
	for i, e := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r := exploreOne(ctx, bin, work, table, e, budget)
			r.Masked = slices.DeleteFunc(r.Masked, func(f string) bool { return slices.Contains(baseline[e.Level], f) })
			results[i] = r
			mu.Lock()
			fmt.Printf("%-50s %-9s %-11s %5d steps %5.1fs %s\n", e.Name, r.Outcome, map[bool]string{true: "reached", false: "not reached"}[r.Reached], r.Steps, r.Seconds, strings.Join(r.Findings, "; "))
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	data, _ := json.MarshalIndent(results, "", "  ")
	_ = os.WriteFile(filepath.Join(out, "mutants-explore.json"), append(data, '\n'), 0o644)
	md := exploreMarkdown(results, budget)
	_ = os.WriteFile(filepath.Join(out, "mutants-explore.md"), []byte(md), 0o644)
	fmt.Print("\n" + md)
	if slices.ContainsFunc(results, func(r ExploreResult) bool { return r.Outcome == Failing || r.Outcome == Broken }) {
		return 1
	}
	return 0
}

// exploreRequestTimeout bounds one request of the column's runs. Two fakes and an explorer
// per job share the machine's cores: at a load average of 10, requests of 10 s timed out
// (and were counted as the mutant's doing). A mutant that hangs still ends its entry.
const exploreRequestTimeout = time.Minute

// timedOut says a side gave no answer in time: the machine's load or a hang, never a kill.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// exploreOne starts the entry's fake and explores it from the fixed seed within budget.
func exploreOne(ctx context.Context, bin, work string, table *explore.Table, e Entry, budget columnBudget) (res ExploreResult) {
	start := time.Now()
	res = ExploreResult{Entry: e}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	dir := filepath.Join(work, cmp.Or(e.Name, fmt.Sprintf("reference-%d", e.Level)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		res.Outcome, res.Error = Broken, err.Error()
		return res
	}
	hits := filepath.Join(dir, "reached")
	url, stop, err := startFake(ctx, bin, e.Name, hits, e.Level)
	if err != nil {
		res.Outcome, res.Error = Broken, err.Error()
		return res
	}
	defer stop()
	target, err := harness.ConnectLogging(harness.Config{URL: url, Owner: harness.Credentials{Email: ownerEmail, APIKey: ownerAPIKey},
		RequestTimeout: exploreRequestTimeout, ReportDir: dir}, io.Discard)
	if err != nil {
		res.Outcome, res.Error = Broken, err.Error()
		return res
	}
	target.Log = io.Discard
	x := &explore.Explorer{Target: target, Reference: explore.Fake, Table: table,
		Options: explore.Options{Seed: exploreSeed, Steps: 150, Budget: budget.time, Sequences: budget.sequences, Tolerance: 3}}
	found, err := x.Run(ctx)
	_, statErr := os.Stat(hits)
	res.Reached, res.Steps, res.Masked = statErr == nil, found.Steps, found.Masked
	var side *explore.SideError
	switch {
	case err != nil && e.Mutant() && errors.As(err, &side) && side.Side == "target" && !timedOut(err):
		// The mutant refused what the explorer needs before or between steps (the cast's
		// credentials, an event queue), which the reference grants: chatconform explore stops
		// with "the target stopped being usable" (exit status 3), as a CI gating on it would.
		res.Outcome, res.Findings = Killed, []string{"target not usable: " + err.Error()}
		return res
	case err != nil:
		res.Outcome, res.Error = Broken, err.Error()
		return res
	}
	for _, f := range found.Findings {
		res.Findings = append(res.Findings, fmt.Sprintf("%s %s [%s]", f.Difference.Reply, f.Difference.Path, strings.Join(f.Requirements, ", ")))
		if slices.ContainsFunc(f.Requirements, func(id string) bool { return slices.Contains(e.Requirements, id) }) {
			res.Attributed = true
		}
	}
	switch {
	case e.Mutant() && len(found.Findings) > 0:
		res.Outcome = Killed
	case e.Mutant():
		res.Outcome = Survived
	case len(found.Findings) > 0:
		res.Outcome = Failing
	default:
		res.Outcome = Passed
	}
	return res
}

// exploreMarkdown is the explore column's report: the kill rate, and every entry with what
// told it or, for a survivor, why nothing did (missed).
func exploreMarkdown(results []ExploreResult, budget columnBudget) string {
	var b strings.Builder
	mutants, killed, attributed, variants, unsound := 0, 0, 0, 0, 0
	for _, r := range results {
		if r.Mutant() {
			mutants++
			if r.Outcome == Killed {
				killed++
			}
			if r.Attributed {
				attributed++
			}
		} else {
			variants++
			if r.Outcome != Passed {
				unsound++
			}
		}
	}
	fmt.Fprintf(&b, "# chatconform explore alone against the mutation catalogue\n\nSeed %d, budget %s per entry.\n\n", exploreSeed, budget)
	if mutants > 0 {
		fmt.Fprintf(&b, "- mutants killed by explore alone: %d of %d (%.0f%%); with a finding attributed to one of the mutant's own requirements: %d\n",
			killed, mutants, 100*float64(killed)/float64(mutants), attributed)
	}
	fmt.Fprintf(&b, "- variants with a difference (explore unsound there): %d of %d\n\n", unsound, variants)
	b.WriteString("| entry | outcome | reached | steps | findings, or why it survived |\n|---|---|---|---|---|\n")
	for _, r := range results {
		fmt.Fprintf(&b, "| %s | %s | %t | %d | %s |\n", r.Name, r.Outcome, r.Reached, r.Steps, cmp.Or(strings.Join(r.Findings, "; "), r.Error, r.missed()))
	}
	return b.String()
}

// missed says why a surviving mutant survived: the generator never produced the input (the
// run did not reach the mutation point), the table lets the fields that differed pass (free,
// or compared by type or text only),
// or nothing that differed was read back.
func (r ExploreResult) missed() string {
	switch {
	case r.Outcome != Survived:
		return ""
	case !r.Reached:
		return "missed: never reached"
	case len(r.Masked) > 0:
		return "missed: differed only where the table lets it: " + strings.Join(r.Masked, ", ")
	}
	return "missed: reached, nothing that differed was read back"
}
