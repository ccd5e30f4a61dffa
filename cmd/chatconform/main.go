// Command chatconform runs the conformance suite as one binary, without Go sources.
//
//	chatconform                                   # run, against the in-process fake (default fixture)
//	chatconform run --url https://chat.example.com \
//	            --owner-email ... --owner-api-key ...
//	chatconform list [--coverage]                 # the requirements catalog
//	chatconform version
//	chatconform serve [-addr …] [-fixture …]      # the reference fake server
//	chatconform diff [--a URL …] [--b URL …]      # two servers' answers side by side
//	chatconform diff A B                          # two recorded runs compared, nothing run
//	chatconform summary REPORT_DIR                # a run's report as Markdown, for a CI job summary
//
// Every chatconform setting is also an environment variable (`chatconform run --help`,
// docs/settings.md), and every Ginkgo flag works with its --ginkgo. prefix (for example
// --ginkgo.label-filter). Reports go to the report directory: conformance.json,
// conformance.html and junit.xml. The exit status is 0 when the target conforms (something
// applied, nothing applicable failed), 1 when it does not, 2 when the settings are invalid (or
// select nothing) and 3 when the run cannot be set up (target unreachable, credentials refused,
// an account without its role, report directory not writable); for 2 and 3 one line says what
// and how to fix it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/spf13/cobra"

	"github.com/chatconform/chatconform/fakeserver/serve"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs"
	"github.com/chatconform/chatconform/specs/catalog"
)

// runT is the GinkgoTestingT of a run outside `go test`: it only remembers failure.
type runT struct{ failed bool }

func (t *runT) Fail() { t.failed = true }

// Exit statuses.
const (
	exitConformant    = 0
	exitNotConformant = 1
	exitBadSettings   = 2
	exitSetupFailed   = 3
)

func main() { os.Exit(execute(os.Args[1:])) }

// execute runs the command line and returns the exit status. The subcommands come from cobra
// (short help, suggestions for a mistyped command); run's flags stay Go flags, which the suite
// shares with go test and Ginkgo, and are parsed by runSuite.
func execute(args []string) int {
	code := exitConformant
	root := &cobra.Command{
		Use:           "chatconform",
		Short:         "The conformance suite of the team chat API, and its reference fake server",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	run := &cobra.Command{Use: "run [--<setting> …] [--ginkgo.<flag> …]", Short: "Run the suite against a server (the default command)",
		DisableFlagParsing: true, RunE: func(_ *cobra.Command, args []string) error { code = runSuite(args); return nil }}
	// `chatconform help run` lists the settings as `run --help` does.
	run.SetHelpFunc(func(*cobra.Command, []string) { runSuite([]string{"--help"}) })
	root.AddCommand(
		run,
		listCommand(),
		diffCommand(&code),
		exploreCommand(&code),
		summaryCommand(),
		selectedCommand(),
		preflightCommand(),
		&cobra.Command{Use: "version", Short: "Print the runner's version and what its catalog holds", Args: cobra.NoArgs,
			RunE: func(*cobra.Command, []string) error { return printVersion() }},
		&cobra.Command{Use: "serve [-addr …] [-fixture …] [-control-token …]", Short: "Run the reference fake server",
			DisableFlagParsing: true, RunE: func(_ *cobra.Command, args []string) error { code = serve.Main("chatconform serve", args); return nil }},
	)
	// No command, or flags first: the suite, as before the subcommands existed.
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		args = append([]string{"run"}, args...)
	}
	root.SetArgs(longFlags(root, args))
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform:", oneLine(err))
		return exitBadSettings
	}
	return code
}

// longFlags lets the commands whose flags cobra parses (list, diff) take a long flag with one
// dash as well as two, as run and serve, whose flags are Go flags, do: -coverage is --coverage.
// Arguments after "--" are left alone.
func longFlags(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd.DisableFlagParsing {
		return args
	}
	out := slices.Clone(args)
	for i, a := range out {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if len(a) >= 2 && a[0] == '-' && a[1] != '-' && cmd.Flags().Lookup(name) != nil {
			out[i] = "-" + a
		}
	}
	return out
}

// runOptions are run's own flags, beside the settings (harness.Settings) and Ginkgo's.
type runOptions struct {
	showVersion, failFast bool
	sel                   selection
}

// defineRunFlags registers run's own flags on flags.
func defineRunFlags(flags *flag.FlagSet) *runOptions {
	o := &runOptions{}
	flags.BoolVar(&o.showVersion, "version", false, "print the runner's version, the catalog's size and the highest feature level it names, and exit")
	flags.StringVar(&o.sel.requirements, "only-requirements", "", "comma list of requirement IDs: run only their specs")
	flags.StringVar(&o.sel.operations, "only-operations", "", "comma list of operation numbers (1 to 21): run only the specs of their requirements")
	flags.StringVar(&o.sel.sections, "only-sections", "", "comma list of parts or sections of the document (\"Errors\", \"Endpoints / 6\"): run only their requirements' specs")
	flags.StringVar(&o.sel.features, "only-features", "", "comma list of catalog features (messages, push, …): run only their requirements' specs")
	flags.StringVar(&o.sel.profile, "only-profile", "", "a profile (core, or an optional feature's: push, vcall, jwt, bot_storage, reminders): run only its requirements' specs")
	flags.BoolVar(&o.failFast, "fail-fast", false, "stop at the first failed spec")
	return o
}

// runSuite parses run's flags and runs the suite. Everything that can be checked before the
// first spec is: the settings (exit 2), what the filters select (2), then the report directory,
// the target and every configured account, and the setup of the cast (3).
func runSuite(args []string) int {
	flags, opts, code := parseRun(args)
	if code >= 0 {
		return code
	}
	cfg, err := harness.ResolveConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", oneLine(err))
		return exitBadSettings
	}
	if err := checkFilters(); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", oneLine(err))
		return exitBadSettings
	}
	if n, err := countSelected(args); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: cannot set up the run: counting the selected requirements:", oneLine(err))
		return exitSetupFailed
	} else if n == 0 {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings: the filters select no spec of any requirement ("+describeFilters(opts.sel)+"); chatconform list --coverage shows the requirements and their specs")
		return exitBadSettings
	}
	if opts.failFast {
		_ = flags.Set("ginkgo.fail-fast", "true")
	}
	if cfg.InsecureSkipVerify {
		fmt.Fprintln(os.Stderr, "chatconform:", harness.InsecureWarning)
	}
	if err := checkReportDir(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: cannot set up the run:", oneLine(err))
		return exitSetupFailed
	}
	if !cfg.UsesFake() {
		if err := harness.Preflight(cfg); err != nil {
			fmt.Fprintln(os.Stderr, "chatconform: cannot set up the target:", oneLine(err))
			return exitSetupFailed
		}
	}
	if err := specs.Prepare(); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: cannot set up the target:", oneLine(err))
		return exitSetupFailed
	}
	// Colour only for a person at a terminal who did not ask for none.
	terminal := isTerminal(os.Stdout)
	if _, set := os.LookupEnv("NO_COLOR"); set || !terminal {
		_ = flags.Set("ginkgo.no-color", "true")
	}
	// Where the run stands instead of a mark per spec, unless Ginkgo was asked to say more.
	if !flagIsTrue(flags, "ginkgo.v") && !flagIsTrue(flags, "ginkgo.vv") {
		formatter.ColorableStdOut = newBoundedProgress(os.Stdout, terminal)
	}
	t := &runT{}
	if !specs.Run(t) || t.failed {
		return exitNotConformant
	}
	// Selected specs that all turned out skipped or not applicable checked nothing: a pass
	// would be a false "conformant".
	if conf := specs.LastReport(); conf != nil {
		if n := conf.Counts; n.Passed+n.Partial+n.Failed+n.Blocked == 0 {
			fmt.Fprintf(os.Stderr, "chatconform: invalid settings: no requirement applied to the target: every selected spec was skipped or not applicable (%d requirements not applicable; the report in %s says why)\n",
				n.NotApplicable, cfg.ReportDir)
			return exitBadSettings
		}
	}
	return exitConformant
}

// parseRun parses run's command line onto flag.CommandLine (the settings, run's flags and
// Ginkgo's) and folds the -only-… selection into the label filter. A code of 0 or more ends
// the command with it (help, version, invalid flags); -1 goes on.
func parseRun(args []string) (*flag.FlagSet, *runOptions, int) {
	flags := flag.CommandLine
	flags.Init("chatconform run", flag.ContinueOnError)
	flags.SetOutput(io.Discard) // one line below instead of every Ginkgo flag
	harness.BindShortFlags(flags)
	opts := defineRunFlags(flags)
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeRunHelp(os.Stdout, flags)
			return nil, nil, exitConformant
		}
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", err.Error()+suggestFlag(flags, err))
		return nil, nil, exitBadSettings
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "chatconform: invalid settings: unexpected argument %q (settings are flags: --url …)\n", flags.Arg(0))
		return nil, nil, exitBadSettings
	}
	if opts.showVersion {
		if err := printVersion(); err != nil {
			fmt.Fprintln(os.Stderr, "chatconform:", err)
			return nil, nil, exitBadSettings
		}
		return nil, nil, exitConformant
	}
	if filter, err := opts.sel.labelFilter(); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", err)
		return nil, nil, exitBadSettings
	} else if filter != "" {
		if given := flags.Lookup("ginkgo.label-filter").Value.String(); given != "" {
			filter = "(" + given + ") && (" + filter + ")"
		}
		_ = flags.Set("ginkgo.label-filter", filter)
	}
	return flags, opts, -1
}

// selectedCommandName is the hidden command that prints how many requirements run's filters
// select. It runs in a process of its own: Ginkgo's PreviewSpecs leaves the suite without its
// top-level BeforeEach and AfterEach nodes (its clone of the suite drops them), so a process
// that previews must not run the suite after.
const selectedCommandName = "selected-requirements"

func selectedCommand() *cobra.Command {
	return &cobra.Command{Use: selectedCommandName + " [run's flags]", Hidden: true, DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			if _, _, code := parseRun(args); code >= 0 {
				return fmt.Errorf("the flags do not parse (exit %d)", code)
			}
			fmt.Println(selectedRequirements())
			return nil
		}}
}

// countSelected runs the hidden command on run's arguments, in a process of its own.
func countSelected(args []string) (int, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(self, append([]string{selectedCommandName}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// checkFilters validates Ginkgo's filters before anything runs: Ginkgo itself would exit 1 on
// a bad label filter, and panic on a bad focus or skip expression.
func checkFilters() error {
	suite, _ := ginkgo.GinkgoConfiguration()
	if suite.DryRun {
		// Every spec would be reported passed without a request sent: a gate that lies.
		return errors.New("--ginkgo.dry-run checks nothing and would report every requirement passed; chatconform list --coverage shows what a run checks")
	}
	if suite.LabelFilter != "" {
		if _, err := types.ParseLabelFilter(suite.LabelFilter); err != nil {
			return fmt.Errorf("--ginkgo.label-filter %q: %s", suite.LabelFilter, ginkgoMessage(err))
		}
	}
	if suite.SemVerFilter != "" {
		if _, err := types.ParseSemVerFilter(suite.SemVerFilter); err != nil {
			return fmt.Errorf("--ginkgo.sem-ver-filter %q: %s", suite.SemVerFilter, ginkgoMessage(err))
		}
	}
	for _, e := range []struct {
		flag string
		list []string
	}{{"--ginkgo.focus", suite.FocusStrings}, {"--ginkgo.skip", suite.SkipStrings}} {
		for _, expr := range e.list {
			if _, err := regexp.Compile(expr); err != nil {
				return fmt.Errorf("%s %q: %w", e.flag, expr, err)
			}
		}
	}
	for _, e := range []struct {
		flag string
		list []string
	}{{"--ginkgo.focus-file", suite.FocusFiles}, {"--ginkgo.skip-file", suite.SkipFiles}} {
		if _, err := types.ParseFileFilters(e.list); err != nil {
			return fmt.Errorf("%s %q: %s", e.flag, e.list, ginkgoMessage(err))
		}
	}
	return nil
}

// ginkgoMessage is the message of a Ginkgo error without its heading, documentation link and
// colour marks.
func ginkgoMessage(err error) string {
	var ge types.GinkgoError
	if errors.As(err, &ge) && ge.Message != "" {
		return colourMark.ReplaceAllString(ge.Message, "")
	}
	return err.Error()
}

// colourMark is a formatter mark such as {{red}} or {{/}} in Ginkgo's messages.
var colourMark = regexp.MustCompile(`\{\{/?[a-z-]*\}\}`)

// selectedRequirements counts the requirements named by the specs the filters leave to run.
func selectedRequirements() int {
	ids := map[string]bool{}
	for _, s := range ginkgo.PreviewSpecs(specs.SuiteName).SpecReports {
		if s.LeafNodeType == types.NodeTypeIt && s.State == types.SpecStatePassed {
			for _, id := range harness.ReqIDs(s.Labels()) {
				ids[id] = true
			}
		}
	}
	return len(ids)
}

// describeFilters names the filters in force, for the message of a run that selects nothing.
func describeFilters(sel selection) string {
	suite, _ := ginkgo.GinkgoConfiguration()
	var given []string
	add := func(flag string, values ...string) {
		for _, v := range values {
			if v != "" {
				given = append(given, fmt.Sprintf("--%s=%s", flag, v))
			}
		}
	}
	add("only-requirements", sel.requirements)
	add("only-operations", sel.operations)
	add("only-sections", sel.sections)
	add("only-features", sel.features)
	add("only-profile", sel.profile)
	if sel == (selection{}) {
		add("ginkgo.label-filter", suite.LabelFilter) // otherwise the selection's own
	}
	add("ginkgo.focus", suite.FocusStrings...)
	add("ginkgo.skip", suite.SkipStrings...)
	add("ginkgo.focus-file", suite.FocusFiles...)
	add("ginkgo.skip-file", suite.SkipFiles...)
	add("ginkgo.sem-ver-filter", suite.SemVerFilter)
	return strings.Join(given, " ")
}

// checkReportDir makes sure the reports can be written before the run starts, not after it.
func checkReportDir(cfg harness.Config) error {
	where := fmt.Sprintf("report directory %s (%s)", cfg.ReportDir, cfg.Source("report-dir"))
	if err := os.MkdirAll(cfg.ReportDir, 0o755); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	probe, err := os.CreateTemp(cfg.ReportDir, ".chatconform-write-check-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", where, err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// flagIsTrue tells whether a boolean flag was set true.
func flagIsTrue(flags *flag.FlagSet, name string) bool {
	f := flags.Lookup(name)
	return f != nil && f.Value.String() == "true"
}

// suggestFlag names the defined flag closest to an undefined one, for a typo.
func suggestFlag(flags *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	best, bestDistance := "", 4 // farther than 3 edits is not a typo
	flags.VisitAll(func(f *flag.Flag) {
		if d := distance(strings.TrimPrefix(name, "-"), f.Name); d < bestDistance {
			best, bestDistance = f.Name, d
		}
	})
	if best == "" {
		return " (chatconform settings start with -chatconform., Ginkgo's with -ginkgo.)"
	}
	return " (did you mean -" + best + "?)"
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int { return harness.EditDistance(a, b) }

// listCommand prints the catalog: each requirement's ID, part, feature and levels, and with
// --coverage the specs that check it.
func listCommand() *cobra.Command {
	var coverage bool
	cmd := &cobra.Command{Use: "list [--coverage]", Short: "List the requirements catalog", Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			cat, err := catalog.Load()
			if err != nil {
				return err
			}
			bySpec := map[string][]string{}
			if coverage {
				for _, s := range ginkgo.PreviewSpecs(specs.SuiteName).SpecReports {
					for _, id := range harness.ReqIDs(s.Labels()) {
						bySpec[id] = append(bySpec[id], s.FullText())
					}
				}
			}
			tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSECTION\tFEATURE\tLEVELS\tREQUIREMENT")
			for _, r := range cat.Requirements {
				levels := ""
				if r.MinLevel > 0 {
					levels = fmt.Sprintf("≥ %d", r.MinLevel)
				}
				if r.BelowLevel > 0 {
					levels = strings.TrimSpace(levels + fmt.Sprintf(" < %d", r.BelowLevel))
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Section, r.Feature, levels, r.Text)
				for _, spec := range bySpec[r.ID] {
					fmt.Fprintf(tw, "\t\t\t\t  spec: %s\n", spec)
				}
			}
			return tw.Flush()
		}}
	cmd.Flags().BoolVar(&coverage, "coverage", false, "also list the specs that check each requirement")
	return cmd
}

// oneLine folds an error's text onto one line.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// isTerminal reports whether f is a character device (a terminal), not a file or a pipe.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// printVersion says which runner this is and what it checks.
func printVersion() error {
	cat, err := catalog.Load()
	if err != nil {
		return err
	}
	highest := 0
	for _, r := range cat.Requirements {
		highest = max(highest, r.MinLevel, r.BelowLevel)
	}
	fmt.Printf("chatconform %s: %d requirements of the API document, up to feature level %d (catalog %s)\n",
		harness.Version, len(cat.Requirements), highest, catalog.Version())
	return nil
}

// selection narrows a run to some requirements; each criterion given must match, and the
// requirements that pass all of them are run through their labels (req:<ID>).
type selection struct{ requirements, operations, sections, features, profile string }

func (sel selection) labelFilter() (string, error) {
	if sel == (selection{}) {
		return "", nil
	}
	cat, err := catalog.Load()
	if err != nil {
		return "", err
	}
	list := func(v string) []string {
		var out []string
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
		return out
	}
	var unknown error
	keep := func(flag, criterion string, match func(r catalog.Requirement, item string) bool) func(catalog.Requirement) bool {
		items := list(criterion)
		// Each value must select something on its own: a typo is named, with a near match.
		for _, item := range items {
			if unknown == nil && !slices.ContainsFunc(cat.Requirements, func(r catalog.Requirement) bool { return match(r, item) }) {
				unknown = unknownValue(cat, flag, item)
			}
		}
		return func(r catalog.Requirement) bool {
			if len(items) == 0 {
				return true
			}
			for _, item := range items {
				if match(r, item) {
					return true
				}
			}
			return false
		}
	}
	checks := []func(catalog.Requirement) bool{
		keep("only-requirements", sel.requirements, func(r catalog.Requirement, id string) bool { return strings.EqualFold(r.ID, id) }),
		keep("only-operations", sel.operations, func(r catalog.Requirement, n string) bool {
			return strings.HasPrefix(r.Section, "Endpoints / "+n+".") || r.Area() == fmt.Sprintf("OP%02s", n)
		}),
		keep("only-sections", sel.sections, func(r catalog.Requirement, s string) bool {
			return strings.HasPrefix(strings.ToLower(r.Section), strings.ToLower(s))
		}),
		keep("only-features", sel.features, func(r catalog.Requirement, f string) bool { return r.Feature == f }),
		keep("only-profile", sel.profile, func(r catalog.Requirement, p string) bool {
			if p == "core" {
				return !slices.Contains(extendedFeatures, r.Feature)
			}
			return r.Feature == p
		}),
	}
	if unknown != nil {
		return "", unknown
	}
	var labels []string
	for _, r := range cat.Requirements {
		if !slices.ContainsFunc(checks, func(ok func(catalog.Requirement) bool) bool { return !ok(r) }) {
			labels = append(labels, harness.ReqLabelPrefix+r.ID)
		}
	}
	if len(labels) == 0 {
		return "", errors.New("the --only-… settings select no requirement of the catalog together (each selects some alone); chatconform list shows the requirements")
	}
	return strings.Join(labels, " || "), nil
}
