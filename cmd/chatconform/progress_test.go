package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness/report"
	"path/filepath"
	"runtime"
)

// TestProgress feeds the progress writer what Ginkgo's default reporter writes for a run of
// four specs (a pass, a failure with its block, a skip, a pass with information) and checks
// what reaches the console, on a terminal and elsewhere.
func TestProgress(t *testing.T) {
	writes := []string{
		"Running Suite: chatconform conformance\n", "Will run \x1b[1m4\x1b[0m of \x1b[1m4\x1b[0m specs\n",
		"\x1b[38;5;10m•\x1b[0m",
		"\n------------------------------\n• [FAILED] [0.012 seconds]\nOperation 6 answers BAD_REQUEST\n  [FAILED] Expected BAD_REQUEST\n",
		"S",
		"\n------------------------------\n• [0.003 seconds]\nOperation 5 records what other operators match\n  Report Entries >>\n",
		"\nRan 4 of 4 Specs\n",
	}
	run := func(terminal bool) string {
		var out strings.Builder
		clock := time.Unix(0, 0)
		p := newProgress(&out, terminal)
		p.now = func() time.Time { clock = clock.Add(time.Second); return clock }
		for _, w := range writes {
			if n, err := p.Write([]byte(w)); err != nil || n != len(w) {
				t.Fatalf("Write(%q) = %d, %v", w, n, err)
			}
		}
		return out.String()
	}

	plain := run(false)
	for _, want := range []string{
		"chatconform: 1 of 4 specs done, 0 failed",
		"chatconform: 3 of 4 specs done, 1 failed",
		"chatconform: 4 of 4 specs done, 1 failed",
		"• [FAILED] [0.012 seconds]\nOperation 6 answers BAD_REQUEST\n  [FAILED] Expected BAD_REQUEST\n",
		"Operation 5 records what other operators match",
		"Ran 4 of 4 Specs",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("plain output lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "\r") || strings.Contains(plain, "•\x1b") || strings.Contains(plain, "\nS\n") {
		t.Errorf("plain output has a mark or a rewritten line:\n%q", plain)
	}

	term := run(true)
	if !strings.Contains(term, "\r\x1b[2Kchatconform: 1 of 4 specs done, 0 failed") ||
		!strings.Contains(term, "\r\x1b[2K\n------------------------------\n• [FAILED]") ||
		!strings.Contains(term, "\r\x1b[2Kchatconform: 3 of 4 specs done, 1 failed") {
		t.Errorf("terminal output does not rewrite one line around the failure block:\n%q", term)
	}
}

// TestProgressBoundsFailures drives Ginkgo's own default reporter through a bounded progress
// writer: of five specs failing the same way the first is printed in full and the others on
// one line each, a spec failing another way is printed in full, the reporter's closing list of
// every failure is left out, and the count of failures stays right.
func TestProgressBoundsFailures(t *testing.T) {
	stack := "github.com/chatconform/chatconform/harness.Success(...)\n\t/src/harness/envelope.go:21 +0x1\n"
	failed := func(i int, msg string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: fmt.Sprintf("spec %d", i), ContainerHierarchyTexts: []string{"Operation 6"},
			State: types.SpecStateFailed, RunTime: time.Millisecond,
			CapturedGinkgoWriterOutput: "--> GET http://x/api/v1/messages/1\n<-- 200 OK\n    {\"result\":\"success\"}\n\n",
			Failure: types.Failure{Message: msg, FailureNodeType: types.NodeTypeIt,
				Location: types.CodeLocation{FileName: "/src/specs/x.go", LineNumber: i, FullStackTrace: stack}}}
	}
	specs := types.SpecReports{}
	for i := range 5 {
		specs = append(specs, failed(i, fmt.Sprintf("expected: map contains key\n\nexpected key:\n  \"msg\"\n\nactual value:\n  {\n    \"id\": %d,\n    \"result\": \"success\"\n  }", i)))
	}
	specs = append(specs, types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "passes", State: types.SpecStatePassed},
		failed(9, "Expected\n    <string>: success\nto equal\n    <string>: error"))

	var out strings.Builder
	p := newProgress(&out, false)
	console := report.NewConsole()
	p.failures = console
	reporter := reporters.NewDefaultReporter(types.ReporterConfig{NoColor: true}, p)
	reporter.SuiteWillBegin(types.Report{SuiteDescription: "suite", PreRunStats: types.PreRunStats{TotalSpecs: len(specs), SpecsThatWillRun: len(specs)}})
	for _, s := range specs {
		console.Add(s) // as the suite's ReportAfterEach does, before the reporter prints the spec
		reporter.DidRun(s)
	}
	reporter.SuiteDidEnd(types.Report{SuiteDescription: "suite", SpecReports: specs, PreRunStats: types.PreRunStats{TotalSpecs: len(specs)}})
	text := out.String()

	for _, tc := range []struct {
		what  string
		count int
		in    string
	}{
		{"full failure blocks", 2, "• [FAILED]"},
		{"findings named as first seen", 2, "first seen here"},
		{"one-line failures", 4, "✗ FAILED Operation 6 spec "},
		{"dumped replies", 1, `"result": "success"`},
		{"closing lists of every failure", 0, "Summarizing"},
		{"counts of the failures", 1, "6 specs failed, each listed above"},
		{"end lines", 1, "Ran 7 of 7 Specs"},
	} {
		if n := strings.Count(text, tc.in); n != tc.count {
			t.Errorf("%d %s (%q), want %d:\n%s", n, tc.what, tc.in, tc.count, text)
		}
	}
	if !strings.Contains(text, "7 of 7 specs done, 6 failed") {
		t.Errorf("progress lost count of the failures:\n%s", text)
	}
	// A one-line failure is one line: no delimiter around it.
	if strings.Contains(text, "------------------------------\n------------------------------") || regexp.MustCompile(`✗[^\n]*\n-{30}\n✗`).MatchString(text) {
		t.Errorf("delimiters around one-line failures:\n%s", text)
	}
}

// TestProgressTrimsBuildPaths: the reporter's header and failure blocks name files by the path
// the runner was built from; the console shows repository paths.
func TestProgressTrimsBuildPaths(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := strings.TrimSuffix(filepath.ToSlash(file), "cmd/chatconform/progress_test.go")
	var out strings.Builder
	p := newProgress(&out, false)
	for _, w := range []string{
		"Running Suite: chatconform conformance - " + root + "specs\n",
		"\n------------------------------\n• [FAILED] [0.012 seconds]\nOperation 6\n  In [It] at: " + root + "specs/fetch_message.go:42\n",
	} {
		if _, err := p.Write([]byte(w)); err != nil {
			t.Fatal(err)
		}
	}
	if got := out.String(); strings.Contains(got, root) || !strings.Contains(got, "conformance - specs\n") || !strings.Contains(got, "at: specs/fetch_message.go:42") {
		t.Errorf("console output holds the build directory %s or lacks the repository paths:\n%s", root, got)
	}
}
