package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

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
	cmd := &cobra.Command{
		Use:   "diff [--a URL …] [--b URL …] [-- run settings for both …]",
		Short: "Run the suite against two servers and list where they answer differently",
		Long: "Runs the same specs against A and B (a side without a URL is the reference fake) and lists each difference once, with the specs that show it: " +
			"verdicts, and in the answers HTTP status, error code and msg, fields only one side sends, field types, and event types and order. " +
			"Exit status 0 when they do not differ, 1 when they do, 2 and 3 as for run.",
		RunE: func(_ *cobra.Command, shared []string) error {
			*code = runDiff(a, b, out, shared)
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
	specs := diff.Compare(runs["A"], runs["B"])
	data, _ := json.MarshalIndent(struct {
		A string `json:"a"`
		B string `json:"b"`
		// Differences group the specs by what differs; Specs list each spec's differences.
		Differences []diff.Group `json:"differences"`
		Specs       []diff.Spec  `json:"specs"`
	}{a.url, b.url, diff.Groups(specs), specs}, "", "  ")
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

// run runs the suite against the side, its console kept in console.txt, and returns the run's
// exit status and, for a failed setup, the line that says why.
func (s side) run(self, dir string, shared []string) (int, string) {
	args := []string{"run", "-chatconform.report-dir=" + dir, "-chatconform.record-exchanges=true"}
	for flag, v := range map[string]string{"url": s.url, "owner-email": s.ownerEmail, "owner-api-key": s.ownerAPIKey, "config": s.config} {
		if v != "" {
			args = append(args, "-chatconform."+flag+"="+v)
		}
	}
	cmd := exec.Command(self, append(args, shared...)...)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !slices.Contains(sideSettings, name) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var console bytes.Buffer
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &console, &stderr
	err := cmd.Run()
	console.Write(stderr.Bytes())
	_ = os.WriteFile(filepath.Join(dir, "console.txt"), console.Bytes(), 0o644)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitConformant, ""
	case errors.As(err, &exit):
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		return exit.ExitCode(), strings.TrimPrefix(lines[len(lines)-1], "chatconform: ")
	}
	return exitSetupFailed, err.Error()
}
