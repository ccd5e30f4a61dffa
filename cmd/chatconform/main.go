// Command chatconform runs the conformance suite as one binary, without Go sources.
//
//	chatconform                                   # against the in-process fake (default fixture)
//	chatconform -chatconform.url https://chat.example.com \
//	            -chatconform.owner-email ... -chatconform.owner-api-key ...
//
// Every chatconform setting is also an environment variable (see the README), and every
// Ginkgo flag works with its -ginkgo. prefix (for example -ginkgo.label-filter). Reports go to
// the report directory: conformance.json, conformance.html and junit.xml.
// The exit status is 0 when the target conforms (nothing applicable failed), 1 when it does
// not, 2 when the settings are invalid and 3 when the target cannot be set up (unreachable,
// credentials refused, or not an owner's); for 2 and 3 one line says what and how to fix it,
// and no report is written.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

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

func main() {
	showVersion := flag.Bool("version", false, "print the runner's version, the catalog's size and the highest feature level it names, and exit")
	flag.Parse()
	if *showVersion {
		printVersion()
		return
	}
	cfg, err := harness.ResolveConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform: invalid settings:", err)
		os.Exit(exitBadSettings)
	}
	if cfg.InsecureSkipVerify {
		fmt.Fprintln(os.Stderr, "chatconform:", harness.InsecureWarning)
	}
	if !cfg.UsesFake() {
		if err := harness.Preflight(cfg); err != nil {
			fmt.Fprintln(os.Stderr, "chatconform: cannot set up the target:", oneLine(err))
			os.Exit(exitSetupFailed)
		}
	}
	// Colour only for a person at a terminal who did not ask for none.
	if _, set := os.LookupEnv("NO_COLOR"); set || !isTerminal(os.Stdout) {
		_ = flag.Set("ginkgo.no-color", "true")
	}
	t := &runT{}
	if !specs.Run(t) || t.failed {
		os.Exit(exitNotConformant)
	}
	os.Exit(exitConformant)
}

// oneLine folds an error's text onto one line.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// isTerminal reports whether f is a character device (a terminal), not a file or a pipe.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// printVersion says which runner this is and what it checks.
func printVersion() {
	cat, err := catalog.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatconform:", err)
		os.Exit(exitBadSettings)
	}
	highest := 0
	for _, r := range cat.Requirements {
		highest = max(highest, r.MinLevel, r.BelowLevel)
	}
	fmt.Printf("chatconform %s: %d requirements of the API document, up to feature level %d\n", harness.Version, len(cat.Requirements), highest)
}
