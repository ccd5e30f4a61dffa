// Command chatconform runs the conformance suite as one binary, without Go sources.
//
//	chatconform                                   # run, against the in-process fake (default fixture)
//	chatconform run -chatconform.url https://chat.example.com \
//	            -chatconform.owner-email ... -chatconform.owner-api-key ...
//	chatconform list [--coverage]                 # the requirements catalog
//	chatconform version
//	chatconform serve [-addr …] [-fixture …]      # the reference fake server
//	chatconform diff [--a URL …] [--b URL …]      # two servers' answers side by side
//
// Every chatconform setting is also an environment variable (docs/settings.md), and every
// Ginkgo flag works with its -ginkgo. prefix (for example -ginkgo.label-filter). Reports go to
// the report directory: conformance.json, conformance.html and junit.xml.
// The exit status is 0 when the target conforms (nothing applicable failed), 1 when it does
// not, 2 when the settings are invalid and 3 when the target cannot be set up (unreachable,
// credentials refused, or not an owner's); for 2 and 3 one line says what and how to fix it,
// and no report is written.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
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
	root.AddCommand(
		&cobra.Command{Use: "run [-chatconform.<setting> …] [-ginkgo.<flag> …]", Short: "Run the suite against a server (the default command)",
			DisableFlagParsing: true, RunE: func(_ *cobra.Command, args []string) error { code = runSuite(args); return nil }},
		listCommand(),
		diffCommand(&code),
		&cobra.Command{Use: "version", Short: "Print the runner's version and what its catalog holds", Args: cobra.NoArgs,
			RunE: func(*cobra.Command, []string) error { return printVersion() }},
		&cobra.Command{Use: "serve [-addr …] [-fixture …] [-control-token …]", Short: "Run the reference fake server",
			DisableFlagParsing: true, RunE: func(_ *cobra.Command, args []string) error { code = serve.Main("chatconform serve", args); return nil }},
	)
	// No command, or flags first: the suite, as before the subcommands existed.
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		args = append([]string{"run"}, args...)
	}
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform:", oneLine(err))
		return exitBadSettings
	}
	return code
}

// runSuite parses run's flags and runs the suite.
func runSuite(args []string) int {
	flags := flag.CommandLine
	flags.Init("chatconform run", flag.ContinueOnError)
	flags.SetOutput(io.Discard) // one line below instead of every Ginkgo flag
	showVersion := flags.Bool("version", false, "print the runner's version, the catalog's size and the highest feature level it names, and exit")
	var sel selection
	flags.StringVar(&sel.requirements, "only-requirements", "", "comma list of requirement IDs: run only their specs")
	flags.StringVar(&sel.operations, "only-operations", "", "comma list of operation numbers (1 to 21): run only the specs of their requirements")
	flags.StringVar(&sel.sections, "only-sections", "", "comma list of parts or sections of the document (\"Errors\", \"Endpoints / 6\"): run only their requirements' specs")
	flags.StringVar(&sel.features, "only-features", "", "comma list of catalog features (messages, push, …): run only their requirements' specs")
	flags.StringVar(&sel.profile, "only-profile", "", "a profile (core, or an optional feature's: push, vcall, jwt, bot_storage, reminders): run only its requirements' specs")
	failFast := flags.Bool("fail-fast", false, "stop at the first failed spec")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Println("chatconform run: the settings are in docs/settings.md (-chatconform.<setting>, or CHATCONFORM_* variables); any Ginkgo flag works as -ginkgo.<flag>, for example -ginkgo.label-filter=req:OP06-01")
			return exitConformant
		}
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", err.Error()+suggestFlag(flags, err))
		return exitBadSettings
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "chatconform: invalid settings: unexpected argument %q (settings are flags: -chatconform.url …)\n", flags.Arg(0))
		return exitBadSettings
	}
	if *showVersion {
		if err := printVersion(); err != nil {
			fmt.Fprintln(os.Stderr, "chatconform:", err)
			return exitBadSettings
		}
		return exitConformant
	}
	cfg, err := harness.ResolveConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", err)
		return exitBadSettings
	}
	if cfg.InsecureSkipVerify {
		fmt.Fprintln(os.Stderr, "chatconform:", harness.InsecureWarning)
	}
	if !cfg.UsesFake() {
		if err := harness.Preflight(cfg); err != nil {
			fmt.Fprintln(os.Stderr, "chatconform: cannot set up the target:", oneLine(err))
			return exitSetupFailed
		}
	}
	if filter, err := sel.labelFilter(); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", err)
		return exitBadSettings
	} else if filter != "" {
		if given := flags.Lookup("ginkgo.label-filter").Value.String(); given != "" {
			filter = "(" + given + ") && (" + filter + ")"
		}
		_ = flags.Set("ginkgo.label-filter", filter)
	}
	if *failFast {
		_ = flags.Set("ginkgo.fail-fast", "true")
	}
	// Colour only for a person at a terminal who did not ask for none.
	terminal := isTerminal(os.Stdout)
	if _, set := os.LookupEnv("NO_COLOR"); set || !terminal {
		_ = flags.Set("ginkgo.no-color", "true")
	}
	// Where the run stands instead of a mark per spec, unless Ginkgo was asked to say more.
	if !flagIsTrue(flags, "ginkgo.v") && !flagIsTrue(flags, "ginkgo.vv") {
		formatter.ColorableStdOut = newProgress(os.Stdout, terminal)
	}
	t := &runT{}
	if !specs.Run(t) || t.failed {
		return exitNotConformant
	}
	return exitConformant
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
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

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
	keep := func(criterion string, match func(r catalog.Requirement, item string) bool) func(catalog.Requirement) bool {
		items := list(criterion)
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
		keep(sel.requirements, func(r catalog.Requirement, id string) bool { return strings.EqualFold(r.ID, id) }),
		keep(sel.operations, func(r catalog.Requirement, n string) bool {
			return strings.HasPrefix(r.Section, "Endpoints / "+n+".") || r.Area() == fmt.Sprintf("OP%02s", n)
		}),
		keep(sel.sections, func(r catalog.Requirement, s string) bool {
			return strings.HasPrefix(strings.ToLower(r.Section), strings.ToLower(s))
		}),
		keep(sel.features, func(r catalog.Requirement, f string) bool { return r.Feature == f }),
		keep(sel.profile, func(r catalog.Requirement, p string) bool {
			extended := []string{"push", "vcall", "jwt", "bot_storage", "reminders"}
			if p == "core" {
				return !slices.Contains(extended, r.Feature)
			}
			return r.Feature == p
		}),
	}
	var labels []string
	for _, r := range cat.Requirements {
		if !slices.ContainsFunc(checks, func(ok func(catalog.Requirement) bool) bool { return !ok(r) }) {
			labels = append(labels, harness.ReqLabelPrefix+r.ID)
		}
	}
	if len(labels) == 0 {
		return "", errors.New("the -only-… settings select no requirement of the catalog")
	}
	return strings.Join(labels, " || "), nil
}
