package report

import (
	"encoding/xml"
	"fmt"
	"os"
	"slices"
	"unicode/utf8"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
)

// junitConfig keeps junit.xml small: the exchanges a spec captured are kept only where it
// failed, which is where a reader needs them.
var junitConfig = reporters.JunitReportConfig{
	OmitTimelinesForSpecState: types.SpecStatePassed | types.SpecStateSkipped | types.SpecStatePending,
	OmitCapturedStdOutErr:     true,
}

// Bounds of a failed case in junit.xml. A server with one systemic bug fails hundreds of specs
// the same way; the first case of each finding keeps its timeline (its last maxTimeline bytes,
// where the failure is), the others their message and the failing exchange, cut, and the
// finding's ID. With 472 failed specs of 3 findings the file stays well under 2 MB.
const (
	maxTimeline   = 32 << 10
	maxRepeatText = 1 << 10
)

// WriteJUnit writes the run as JUnit XML: one test case per spec, its classname the operation
// or concern it belongs to (its outermost Describe), so CI systems group the cases as the
// document does. A passing spec carries no notes (the HTTP status of each request is for
// failures); a failed one names its finding.
func WriteJUnit(r types.Report, path string) error {
	// The structured exchanges are the JSON report's; a failed spec's timeline has them as text.
	specs := make(types.SpecReports, len(r.SpecReports))
	for i, s := range r.SpecReports {
		s.ReportEntries = slices.DeleteFunc(slices.Clone(s.ReportEntries), func(e types.ReportEntry) bool {
			return e.Name == harness.ExchangesEntry || !s.Failed()
		})
		specs[i] = s
	}
	r.SpecReports = specs
	if err := reporters.GenerateJUnitReportWithConfig(r, path, junitConfig); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		return err
	}
	keys := findingKeys(r)
	failedReqs := map[string]bool{}
	for _, s := range r.SpecReports {
		if s.Failed() {
			for _, id := range harness.ReqIDs(s.Labels()) {
				failedReqs[id] = true
			}
		}
	}
	shown := map[string]string{} // finding -> the spec whose case shows it in full
	// Ginkgo writes one case per spec report, in order (suite nodes included).
	for i := range suites.TestSuites {
		suite := &suites.TestSuites[i]
		cases := suite.TestCases
		var kept []reporters.JUnitTestCase
		for j := range cases {
			if j >= len(r.SpecReports) {
				break
			}
			s := r.SpecReports[j]
			if s.LeafNodeType != types.NodeTypeIt && !s.Failed() {
				continue // a suite node that went well is not a spec: the console counts none
			}
			if len(s.ContainerHierarchyTexts) > 0 {
				cases[j].Classname = s.ContainerHierarchyTexts[0]
			}
			if k, failed := keys[specName(s)]; failed {
				boundCase(&cases[j], s, k.id, shown)
				if root := k.rootOutside(s); root != "" && failedReqs[root] {
					markBlocked(&cases[j], root, k)
				}
			}
			kept = append(kept, cases[j])
		}
		suite.TestCases = kept
		suite.Package = repoPath(suite.Package)
		countCases(suite)
	}
	suites.Tests, suites.Failures, suites.Errors, suites.Disabled = 0, 0, 0, 0
	for _, suite := range suites.TestSuites {
		suites.Tests += suite.Tests
		suites.Failures += suite.Failures
		suites.Errors += suite.Errors
		suites.Disabled += suite.Disabled + suite.Skipped
	}
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	// Ginkgo's messages, timelines and SuitePath property name files by their build path.
	return writeFile(path, []byte(TrimBuildPaths(xml.Header+string(out))))
}

// boundCase names a failed case's finding and keeps its detail in bounds: in full (timeline
// cut to its end) for the finding's first case, as a reference to that case for the others.
func boundCase(c *reporters.JUnitTestCase, s types.SpecReport, finding string, shown map[string]string) {
	first, seen := shown[finding]
	var message, description *string
	switch {
	case c.Failure != nil:
		message, description = &c.Failure.Message, &c.Failure.Description
	case c.Error != nil:
		message, description = &c.Error.Message, &c.Error.Description
	default:
		return
	}
	if !seen {
		shown[finding] = specName(s)
		*description = "finding " + finding + "\n" + *description
		if n := len(c.SystemErr); n > maxTimeline {
			c.SystemErr = fmt.Sprintf("… (%d bytes of the timeline left out)\n", n-maxTimeline) + c.SystemErr[n-maxTimeline:]
		}
		return
	}
	*message = cut(harness.RedactText(*message), maxRepeatText)
	request := failingExchange(s, harness.ExchangesOf(s.ReportEntries)).text
	*description = fmt.Sprintf("finding %s, as in %q (shown in full there)\n%s\n\nthe failing request:\n%s",
		finding, first, s.Failure.Location, cut(request, maxRepeatText))
	c.SystemErr = ""
}

// cut shortens s to n bytes at most, on a character boundary, saying how much it left out.
func cut(s string, n int) string {
	out, _ := cutCount(s, n)
	return out
}

// cutCount is cut and the number of bytes it left out.
func cutCount(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	k := n
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + fmt.Sprintf("… (%d bytes more)", len(s)-k), len(s) - k
}

// countCases sets a suite's totals from its cases, as the console counts the specs: a failed
// case is a failure or an error (a panic, an interruption), a skipped one is disabled when it
// was pending.
func countCases(suite *reporters.JUnitTestSuite) {
	suite.Tests, suite.Failures, suite.Errors, suite.Skipped, suite.Disabled = len(suite.TestCases), 0, 0, 0, 0
	for _, c := range suite.TestCases {
		switch {
		case c.Failure != nil:
			suite.Failures++
		case c.Error != nil:
			suite.Errors++
		case c.Skipped != nil && c.Status == types.SpecStatePending.String():
			suite.Disabled++
		case c.Skipped != nil:
			suite.Skipped++
		}
	}
}

// rootOutside is the requirement the finding's check belongs to when the spec does not name it:
// the spec stopped at another requirement's check, before its own.
func (k specFinding) rootOutside(s types.SpecReport) string {
	if k.mismatch == nil || k.mismatch.Requirement == "" || slices.Contains(harness.ReqIDs(s.Labels()), k.mismatch.Requirement) {
		return ""
	}
	return k.mismatch.Requirement
}

// markBlocked says on a failed case that it is blocked by another requirement's finding: still
// a failure (the exit status is 1), typed "blocked" so a CI page can tell it apart.
func markBlocked(c *reporters.JUnitTestCase, root string, k specFinding) {
	prefix := fmt.Sprintf("blocked by %s (finding %s: %s): ", root, k.id, k.title)
	if c.Failure != nil {
		c.Failure.Type, c.Failure.Message = "blocked", prefix+c.Failure.Message
	}
}
