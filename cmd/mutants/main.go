// Command mutants measures the conformance suite's strength: it runs the suite against
// mutants, each the fake with one documented rule broken, which the suite must catch, and
// against benign variants, each the fake making another choice the document leaves open,
// which must pass (docs/mutation.md).
//
//	go run ./cmd/mutants              # every mutant and variant (make mutants)
//	go run ./cmd/mutants -sample      # the fixed sample (make test)
//	go run ./cmd/mutants -run 'emoji' # the entries whose name matches
//	go run ./cmd/mutants -list        # the catalogue
//	go run ./cmd/mutants -sample -explore 15s   # the entries against chatconform explore alone
//	go run ./cmd/mutants -explore-sequences 4   # the same, bounded in steps rather than time
//
// It builds the fake once with the mutants tag and the suite's test binary once, runs a fake
// per entry with that entry's mutation point on, several at once, and writes
// reports/mutants.md and reports/mutants.json. The exit status is 0 when every mutant run was
// killed and every variant passed, 1 otherwise, 2 on bad flags or a failed build.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/chatconform/chatconform/specs/catalog"
)

func main() { os.Exit(mainStatus(os.Args[1:])) }

func mainStatus(args []string) int {
	flags := flag.NewFlagSet("mutants", flag.ContinueOnError)
	jobs := flags.Int("j", runtime.NumCPU(), "runs at once (each a fake and a suite process)")
	sampleOnly := flags.Bool("sample", false, "only the fixed sample (make test): mutants against the specs of their requirements, variants against the whole suite")
	pattern := flags.String("run", "", "only the entries whose name matches this regular expression")
	list := flags.Bool("list", false, "print the catalogue and exit")
	out := flags.String("out", "reports", "directory for mutants.md and mutants.json")
	exploreOnly := flags.Duration("explore", 0, "instead of the suite, run chatconform explore alone against each entry for this long (fixed seed; e.g. 15s): the explore column, in mutants-explore.md and .json")
	exploreSequences := flags.Int("explore-sequences", 0, "the explore column bounded by this many sequences of at most 150 steps per entry instead of by time: the same steps on any machine")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	entries := Entries
	if *sampleOnly {
		entries = slices.DeleteFunc(slices.Clone(entries), func(e Entry) bool { return !e.Sample })
	}
	if *pattern != "" {
		re, err := regexp.Compile(*pattern)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants: -run:", err)
			return 2
		}
		entries = slices.DeleteFunc(slices.Clone(entries), func(e Entry) bool { return !re.MatchString(e.Name) })
	}
	if *list {
		printList(entries)
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *exploreOnly < 0 || *exploreSequences < 0 {
		fmt.Fprintln(os.Stderr, "mutants: -explore and -explore-sequences must not be negative")
		return 2
	}
	if *exploreOnly > 0 || *exploreSequences > 0 {
		return exploreAll(ctx, entries, *jobs, columnBudget{time: *exploreOnly, sequences: *exploreSequences}, *out)
	}
	return execute(ctx, entries, *jobs, *sampleOnly, *out)
}

func printList(entries []Entry) {
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tOPERATOR\tREQUIREMENTS\tSAMPLE\tWHAT IT DOES")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%v\t%t\t%s\n", e.Name, e.Operator, e.Requirements, e.Sample, e.Does)
	}
	_ = tw.Flush()
}

func execute(ctx context.Context, entries []Entry, jobs int, sampleOnly bool, out string) int {
	started := time.Now()
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	work, err := os.MkdirTemp("", "chatconform-mutants-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	defer os.RemoveAll(work)
	fmt.Printf("building the fake with its mutation points and the suite's binary ...\n")
	b, err := build(ctx, root, work)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants: build:", err)
		return 2
	}
	// The mutants build with no point on is the reference fake: if the suite fails it, no
	// kill below would mean anything.
	suite := func(e Entry, only []string) Result { return runOne(ctx, b, work, e, only) }
	ref := suite(Entry{Name: "", Operator: Variant, Does: "the reference fake, no point on"}, nil)
	if ref.Outcome != Passed {
		fmt.Fprintf(os.Stderr, "mutants: the suite does not pass the mutants build with no point on (%s): %v %s\n", ref.Outcome, ref.Failed, ref.Error)
		return 1
	}
	fmt.Printf("reference passes (%.1f s); %d entries, %d at once\n", ref.Seconds, len(entries), jobs)
	// Entries at a level of their own are judged only where the reference passes at that level.
	failedLevels := checkLevels(entries, sampleOnly, suite, func(format string, args ...any) { fmt.Printf(format, args...) })
	results := runAll(entries, jobs, sampleOnly, failedLevels, suite, func(r Result) {
		fmt.Printf("%-9s %-45s %-15s %5.1fs reached=%-5t %v\n", r.Outcome, r.Name, r.Operator, r.Seconds, r.Reached, r.Failed)
	})
	run := Run{Started: started, Seconds: time.Since(started).Seconds(), Jobs: jobs, Sample: sampleOnly,
		Totals: count(results), Results: results, Untested: untested(results)}
	if err := writeReports(out, run); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	fmt.Printf("%s in %.0f s; %s\n", run.Totals, run.Seconds, filepath.Join(out, "mutants.md"))
	if !run.Totals.OK() {
		return 1
	}
	return 0
}

// untested lists the catalog's requirements that no entry of the run breaks.
func untested(results []Result) []string {
	c, err := catalog.Load()
	if err != nil {
		return nil
	}
	broken := map[string]bool{}
	for _, r := range results {
		for _, id := range r.Requirements {
			broken[id] = true
		}
	}
	var ids []string
	for _, id := range c.IDs() {
		if !broken[id] {
			ids = append(ids, id)
		}
	}
	return ids
}

func writeReports(dir string, run Run) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	md, err := os.Create(filepath.Join(dir, "mutants.md"))
	if err != nil {
		return err
	}
	writeMarkdown(md, run)
	if err := md.Close(); err != nil {
		return err
	}
	js, err := os.Create(filepath.Join(dir, "mutants.json"))
	if err != nil {
		return err
	}
	if err := writeJSON(js, run); err != nil {
		js.Close()
		return err
	}
	return js.Close()
}

// moduleRoot finds the directory of go.mod from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
