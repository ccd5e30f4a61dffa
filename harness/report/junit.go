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
	shown := map[string]string{} // finding -> the spec whose case shows it in full
	// Ginkgo writes one case per spec report, in order (suite nodes included).
	for i := range suites.TestSuites {
		cases := suites.TestSuites[i].TestCases
		for j := range cases {
			if j >= len(r.SpecReports) {
				break
			}
			s := r.SpecReports[j]
			if len(s.ContainerHierarchyTexts) > 0 {
				cases[j].Classname = s.ContainerHierarchyTexts[0]
			}
			if k, failed := keys[specName(s)]; failed {
				boundCase(&cases[j], s, k.id, shown)
			}
		}
	}
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append([]byte(xml.Header), out...))
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
