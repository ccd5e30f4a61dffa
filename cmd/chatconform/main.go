// Command chatconform runs the conformance suite as one binary, without Go sources.
//
//	chatconform                                   # against the in-process fake (default fixture)
//	chatconform -chatconform.url https://chat.example.com \
//	            -chatconform.owner-email ... -chatconform.owner-api-key ...
//
// Every chatconform setting is also an environment variable (see the README), and every
// Ginkgo flag works with its -ginkgo. prefix (for example -ginkgo.label-filter). Reports go to
// the report directory: conformance.json, conformance.html and junit.xml.
// The exit status is 0 when the target conforms, 1 when it does not, and 2 when the settings
// are invalid.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs"
)

// runT is the GinkgoTestingT of a run outside `go test`: it only remembers failure.
type runT struct{ failed bool }

func (t *runT) Fail() { t.failed = true }

func main() {
	flag.Parse()
	if !flagSet("ginkgo.junit-report") {
		cfg, err := harness.ResolveConfig()
		if err != nil {
			fmt.Fprintln(os.Stderr, "chatconform:", err)
			os.Exit(2)
		}
		if err := os.MkdirAll(cfg.ReportDir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "chatconform: no JUnit report:", err)
		} else {
			_ = flag.Set("ginkgo.junit-report", filepath.Join(cfg.ReportDir, "junit.xml"))
		}
	}
	t := &runT{}
	if !specs.Run(t) || t.failed {
		os.Exit(1)
	}
}

func flagSet(name string) bool {
	found := false
	flag.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}
