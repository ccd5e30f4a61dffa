package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/explore"
	"github.com/chatconform/chatconform/harness/report"
)

// exploreOptions are explore's own flags, beside the settings.
type exploreOptions struct {
	seed      uint64
	steps     int
	budget    time.Duration
	sequences int
	replay    string
	tolerance float64
	noShrink  bool
}

// exploreCommand runs chatconform explore; its flags are Go flags, as run's are, so the
// settings come in the same forms (flags, CHATCONFORM_* variables, the settings file).
func exploreCommand(code *int) *cobra.Command {
	return &cobra.Command{
		Use:                "explore [--seed N] [--steps N] [--budget 1m | --sequences N] [--replay FILE] [--<setting> …]",
		Short:              "Drive random sequences against the target and the reference fake in lockstep and report where they differ",
		DisableFlagParsing: true,
		RunE:               func(_ *cobra.Command, args []string) error { *code = runExplore(args, os.Stdout); return nil },
	}
}

func defineExploreFlags(fs *flag.FlagSet) *exploreOptions {
	o := &exploreOptions{}
	fs.Uint64Var(&o.seed, "seed", 0, "seed of the first sequence (0: one from the clock, printed); the same seed draws the same sequences")
	fs.IntVar(&o.steps, "steps", 150, "steps of one sequence at most")
	fs.DurationVar(&o.budget, "budget", time.Minute, "time the whole exploration may take (shrinking a finding may take a little longer)")
	fs.IntVar(&o.sequences, "sequences", 0, "run this many sequences instead of until the budget is spent: the same work on any machine (0: by the budget)")
	fs.StringVar(&o.replay, "replay", "", "a finding's replay file (report directory, explore/X01.json): run its sequence once instead of exploring")
	fs.Float64Var(&o.tolerance, "tolerance", 3, "seconds two times may differ by when the target's clock cannot be read (no clock capability)")
	fs.BoolVar(&o.noShrink, "no-shrink", false, "report each difference with its whole sequence, not shrunk to a minimal one")
	return o
}

// runExplore parses explore's flags and settings, connects to the target (the in-process
// fake without --url) and explores or replays. Exit status as run's: 0 no difference, 1
// differences, 2 invalid settings, 3 target unusable.
func runExplore(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("chatconform explore", flag.ContinueOnError)
	harness.BindFlags(fs)
	harness.BindShortFlags(fs)
	opts := defineExploreFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitConformant
		}
		return exitBadSettings
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "chatconform: invalid settings: explore takes no arguments (got %q)\n", fs.Args())
		return exitBadSettings
	}
	cfg, err := harness.ResolveConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", oneLine(err))
		return exitBadSettings
	}
	if opts.steps <= 0 || opts.budget <= 0 || opts.sequences < 0 || opts.tolerance < 0 {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings: --steps and --budget must be positive, --sequences and --tolerance not negative")
		return exitBadSettings
	}
	var script explore.Script
	if opts.replay != "" {
		if script, err = explore.ReadScript(opts.replay); err != nil {
			fmt.Fprintln(os.Stderr, "chatconform: invalid settings: --replay:", oneLine(err))
			return exitBadSettings
		}
	}
	// The lines of free fields are checked against the document by the table's Go test.
	table, err := explore.LoadTable(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: the field table is invalid:", oneLine(err))
		return exitSetupFailed
	}
	if err := os.MkdirAll(cfg.ReportDir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: cannot set up the run:", oneLine(err))
		return exitSetupFailed
	}
	if cfg.InsecureSkipVerify {
		fmt.Fprintln(os.Stderr, "chatconform:", harness.InsecureWarning)
	}
	target, stop, err := connectExplored(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: cannot set up the target:", oneLine(err))
		return exitSetupFailed
	}
	defer stop()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if opts.seed == 0 {
		opts.seed = uint64(time.Now().UnixNano() % 1_000_000)
	}
	e := &explore.Explorer{Target: target, Reference: explore.Fake, Table: table, Options: explore.Options{
		Seed: opts.seed, Steps: opts.steps, Budget: opts.budget, Sequences: opts.sequences, Tolerance: opts.tolerance, Shrink: !opts.noShrink, Progress: os.Stderr}}
	var res explore.Result
	if opts.replay != "" {
		e.Options.Seed = script.Seed
		fmt.Fprintf(os.Stderr, "explore: target %s (feature level %d), replaying %s (%d steps)\n", target.URL, target.FeatureLevel, opts.replay, len(script.Steps))
		res, err = e.Replay(ctx, script)
	} else {
		fmt.Fprintf(os.Stderr, "explore: target %s (feature level %d), seed %d, budget %s\n", target.URL, target.FeatureLevel, opts.seed, opts.budget)
		res, err = e.Run(ctx)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: the target stopped being usable:", oneLine(err))
		return exitSetupFailed
	}
	// A replay writes the same reports as a run: a CI that replays a finding reads whether it
	// still shows where it reads every other verdict.
	replays, err := explore.Write(cfg.ReportDir, target, e.Options, res)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: writing the report:", oneLine(err))
		return exitSetupFailed
	}
	// The suite's formats too, under a profile of their own, so a CI reading the suite's
	// reports reads the findings the same way.
	conf, err := explore.WriteReports(cfg.ReportDir, target, e.Options, res, replays, table)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: writing the report:", oneLine(err))
		return exitSetupFailed
	}
	explore.Print(out, res, replays)
	fmt.Fprintf(out, "\n%s", report.Summary(conf))
	dir := filepath.Join(cfg.ReportDir, explore.FindingsDir)
	fmt.Fprintf(out, "report: %s; in the suite's formats: %s (%s, %s, %s)\n", filepath.Join(cfg.ReportDir, explore.ReportFile), dir, report.JSONFile, report.HTMLFile, report.JUnitFile)
	if len(res.Findings) > 0 {
		return exitNotConformant
	}
	return exitConformant
}

// connectExplored connects to the configured target, or starts the in-process fake as the
// target when no URL is given (the reference against itself: a check of the explorer).
func connectExplored(cfg harness.Config) (*harness.Target, func(), error) {
	stop := func() {}
	if cfg.UsesFake() {
		var opts []fakeserver.Option
		if cfg.FeatureLevel > 0 {
			opts = append(opts, fakeserver.WithFeatureLevel(cfg.FeatureLevel))
		}
		ts := fakeserver.NewTestServer(opts...)
		owner, _ := ts.Server.Fixture().UserByRole(fixtures.RoleOwner)
		cfg.URL = ts.URL
		cfg.Owner = harness.Credentials{Email: owner.Email, APIKey: owner.APIKey}
		stop = ts.Close
	} else if err := harness.Preflight(cfg); err != nil {
		return nil, nil, err
	}
	t, err := harness.ConnectLogging(cfg, io.Discard)
	if err != nil {
		stop()
		return nil, nil, err
	}
	t.Log = io.Discard
	return t, func() { _ = t.Teardown(); stop() }, nil
}
