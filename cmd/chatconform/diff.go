package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/diff"
	"github.com/chatconform/chatconform/harness/report"
)

// side is one of the two targets of chatconform diff.
type side struct {
	name, url, ownerEmail, ownerAPIKey, config string
}

// diffCommand runs the suite against two targets, each run recording its exchanges, and lists
// each difference of verdict or answer once, with the specs that show it. A side without a URL is the reference
// fake on its embedded fixture.
func diffCommand(code *int) *cobra.Command {
	a, b := side{name: "A"}, side{name: "B"}
	var out string
	var cmd *cobra.Command
	cmd = &cobra.Command{
		Use:   "diff [--a URL …] [--b URL …] [-- run settings for both …] | diff A B",
		Short: "Run the suite against two servers and list where they answer differently",
		Long: "Runs the same specs against A and B (a side without a URL is the reference fake) and lists each difference once, with the specs that show it: " +
			"verdicts, and in the answers HTTP status, error code and msg, fields only one side sends, field types, and event types and order. " +
			"Both targets are checked before either run starts. " +
			"With two paths instead (`chatconform diff A B`), it compares two runs already made, without running anything: each path a report directory, " +
			"its conformance.json or its exchanges.jsonl, from a run with --record-exchanges (as diff's own runs under --out/a and --out/b). " +
			"Exit status 0 when they do not differ, 1 when they do, 2 and 3 as for run.",
		RunE: func(_ *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() < 0 && len(args) > 0 {
				*code = compareRecorded(cmd, args, out)
				return nil
			}
			*code = runDiff(a, b, out, args)
			return nil
		},
	}
	for _, s := range []*side{&a, &b} {
		n := strings.ToLower(s.name)
		cmd.Flags().StringVar(&s.url, n, "", "URL of target "+s.name+" (none: the reference fake on its embedded fixture)")
		cmd.Flags().StringVar(&s.ownerEmail, n+"-owner-email", "", "owner's email on target "+s.name)
		cmd.Flags().StringVar(&s.ownerAPIKey, n+"-owner-api-key", "", "owner's API key on target "+s.name)
		cmd.Flags().StringVar(&s.config, n+"-config", "", "YAML settings file of target "+s.name+" (as -chatconform.config)")
	}
	cmd.Flags().StringVar(&out, "out", filepath.Join("reports", "diff"), "directory of both runs' reports and diff.json")
	return cmd
}

// sideSettings are the variables a run would otherwise take from the environment for both
// sides alike; each side's come from its own flags.
var sideSettings = []string{"CHATCONFORM_URL", "CHATCONFORM_OWNER_EMAIL", "CHATCONFORM_OWNER_API_KEY",
	"CHATCONFORM_CONFIG", "CHATCONFORM_REPORT_DIR", "CHATCONFORM_RECORD_EXCHANGES"}

func runDiff(a, b side, out string, shared []string) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: cannot find this program to run the suite:", err)
		return exitSetupFailed
	}
	// Both runs take the specs in one order: the harness's spare accounts carry state from
	// spec to spec, so runs in two orders send different setup requests.
	if !slices.ContainsFunc(shared, func(arg string) bool { return strings.Contains(arg, "ginkgo.seed") }) {
		shared = append(shared, fmt.Sprintf("-ginkgo.seed=%d", time.Now().UnixNano()%1_000_000_000))
	}
	// Both targets are checked first: an unreachable B is found before A's run, not after it.
	for _, s := range []side{a, b} {
		if s.url == "" {
			continue
		}
		if code, msg := s.exec(self, append([]string{preflightCommandName}, s.settings()...), nil); code != exitConformant {
			fmt.Fprintf(os.Stderr, "chatconform: target %s: %s\n", s.name, msg)
			return code
		}
	}
	runs := map[string]map[string]report.SpecExchanges{}
	for _, s := range []side{a, b} {
		dir := filepath.Join(out, strings.ToLower(s.name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "chatconform: invalid settings: --out:", err)
			return exitBadSettings
		}
		what := s.url
		if what == "" {
			what = "the reference fake"
		}
		_ = os.Remove(filepath.Join(dir, report.ExchangesFile)) // never a previous run's
		fmt.Printf("running the suite against %s (%s); its reports go to %s\n", s.name, what, dir)
		if code, msg := s.run(self, dir, shared); code == exitBadSettings || code == exitSetupFailed {
			fmt.Fprintf(os.Stderr, "chatconform: target %s: %s\n", s.name, msg)
			return code
		}
		recorded, err := report.ReadExchanges(filepath.Join(dir, report.ExchangesFile))
		if err != nil {
			fmt.Fprintf(os.Stderr, "chatconform: target %s: the run recorded no exchanges (see %s): %s\n", s.name, filepath.Join(dir, "console.txt"), oneLine(err))
			return exitSetupFailed
		}
		runs[s.name] = recorded
	}
	return writeDiff(out, a.url, b.url, runs["A"], runs["B"])
}

// writeDiff compares two runs, writes diff.json into out and prints the differences.
func writeDiff(out, nameA, nameB string, a, b map[string]report.SpecExchanges) int {
	specs := diff.Compare(a, b)
	data, _ := json.MarshalIndent(struct {
		A string `json:"a"`
		B string `json:"b"`
		// Differences group the specs by what differs; Specs list each spec's differences.
		Differences []diff.Group `json:"differences"`
		Specs       []diff.Spec  `json:"specs"`
	}{nameA, nameB, diff.Groups(specs), specs}, "", "  ")
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings: --out:", err)
		return exitBadSettings
	}
	if err := os.WriteFile(filepath.Join(out, "diff.json"), data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "chatconform:", err)
		return exitSetupFailed
	}
	fmt.Println()
	diff.Write(os.Stdout, specs)
	fmt.Printf("diff: %s\n", filepath.Join(out, "diff.json"))
	if len(specs) > 0 {
		return exitNotConformant
	}
	return exitConformant
}

// compareRecorded compares two runs already made (chatconform diff A B), running nothing.
func compareRecorded(cmd *cobra.Command, paths []string, out string) int {
	if len(paths) != 2 {
		fmt.Fprintf(os.Stderr, "chatconform: invalid settings: diff compares two recorded runs, and was given %d path(s); to run the suite against two targets, give --a and --b instead\n", len(paths))
		return exitBadSettings
	}
	var given []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Name != "out" {
			given = append(given, "--"+f.Name)
		}
	})
	if len(given) > 0 {
		fmt.Fprintf(os.Stderr, "chatconform: invalid settings: %s name a target to run, and %s %s are runs already made: give one or the other\n", strings.Join(given, ", "), paths[0], paths[1])
		return exitBadSettings
	}
	runs := make([]map[string]report.SpecExchanges, 2)
	for i, p := range paths {
		recorded, err := readRecorded(p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "chatconform: invalid settings: %s %s: %s\n", []string{"A", "B"}[i], p, oneLine(err))
			return exitBadSettings
		}
		runs[i] = recorded
	}
	return writeDiff(out, paths[0], paths[1], runs[0], runs[1])
}

// readRecorded reads a recorded run from a report directory, its conformance.json or its
// exchanges.jsonl: the exchanges file is what holds every spec's answers.
func readRecorded(path string) (map[string]report.SpecExchanges, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	file := path
	if info.IsDir() {
		file = filepath.Join(path, report.ExchangesFile)
	} else if filepath.Base(path) != report.ExchangesFile {
		file = filepath.Join(filepath.Dir(path), report.ExchangesFile)
	}
	if _, err := os.Stat(file); err != nil {
		return nil, fmt.Errorf("no %s beside it: the run did not record its exchanges (run it with --record-exchanges, as chatconform diff's own runs do)", report.ExchangesFile)
	}
	return report.ReadExchanges(file)
}

// preflightCommandName is the hidden command diff runs for each side before either run: the
// checks run makes before its first spec (settings, the target, every account), and nothing
// more.
const preflightCommandName = "preflight-target"

func preflightCommand() *cobra.Command {
	return &cobra.Command{Use: preflightCommandName + " [run's flags]", Hidden: true, DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			if _, _, code := parseRun(args); code >= 0 {
				os.Exit(code)
			}
			cfg, err := harness.ResolveConfig()
			if err != nil {
				fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", oneLine(err))
				os.Exit(exitBadSettings)
			}
			if err := harness.Preflight(cfg); err != nil {
				fmt.Fprintln(os.Stderr, "chatconform: cannot set up the target:", oneLine(err))
				os.Exit(exitSetupFailed)
			}
			return nil
		}}
}

// settings are the side's own settings as run's flags.
func (s side) settings() []string {
	var args []string
	for _, flag := range []string{"url", "owner-email", "owner-api-key", "config"} {
		if v := map[string]string{"url": s.url, "owner-email": s.ownerEmail, "owner-api-key": s.ownerAPIKey, "config": s.config}[flag]; v != "" {
			args = append(args, "-chatconform."+flag+"="+v)
		}
	}
	return args
}

// runFlag is a setting of one side as run names it in its messages (--url, -chatconform.url).
var runFlag = regexp.MustCompile(`(?:--|-chatconform\.)(url|owner-email|owner-api-key|config)\b`)

// ownFlags names diff's flags of the side where a message of run names run's: --url is --b.
func (s side) ownFlags(msg string) string {
	n := strings.ToLower(s.name)
	return runFlag.ReplaceAllStringFunc(msg, func(m string) string {
		name := runFlag.FindStringSubmatch(m)[1]
		if name == "url" {
			return "--" + n
		}
		return "--" + n + "-" + name
	})
}

// run runs the suite against the side, its console kept in console.txt, and returns the run's
// exit status and, for a failed setup, the line that says why.
func (s side) run(self, dir string, shared []string) (int, string) {
	args := append([]string{"run", "-chatconform.report-dir=" + dir, "-chatconform.record-exchanges=true"}, s.settings()...)
	var console bytes.Buffer
	code, msg := s.exec(self, append(args, shared...), &console)
	_ = os.WriteFile(filepath.Join(dir, "console.txt"), console.Bytes(), 0o644)
	return code, msg
}

// exec runs this program with args for the side, its output kept in console when given, and
// returns its exit status and, for a failure, its last line of errors with diff's flags named.
func (s side) exec(self string, args []string, console *bytes.Buffer) (int, string) {
	cmd := exec.Command(self, args...)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !slices.Contains(sideSettings, name) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if console == nil {
		console = &bytes.Buffer{}
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = console, &stderr
	err := cmd.Run()
	console.Write(stderr.Bytes())
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitConformant, ""
	case errors.As(err, &exit):
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		return exit.ExitCode(), s.ownFlags(strings.TrimPrefix(lines[len(lines)-1], "chatconform: "))
	}
	return exitSetupFailed, err.Error()
}
