package report

import (
	"encoding/xml"
	"os"
	"slices"

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

// WriteJUnit writes the run as JUnit XML: one test case per spec, its classname the operation
// or concern it belongs to (its outermost Describe), so CI systems group the cases as the
// document does.
func WriteJUnit(r types.Report, path string) error {
	// The structured exchanges are the JSON report's; a failed spec's timeline has them as text.
	specs := make(types.SpecReports, len(r.SpecReports))
	for i, s := range r.SpecReports {
		s.ReportEntries = slices.DeleteFunc(slices.Clone(s.ReportEntries), func(e types.ReportEntry) bool {
			return e.Name == harness.ExchangesEntry
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
	// Ginkgo writes one case per spec report, in order (suite nodes included).
	for i := range suites.TestSuites {
		cases := suites.TestSuites[i].TestCases
		for j := range cases {
			if j < len(r.SpecReports) && len(r.SpecReports[j].ContainerHierarchyTexts) > 0 {
				cases[j].Classname = r.SpecReports[j].ContainerHierarchyTexts[0]
			}
		}
	}
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append([]byte(xml.Header), out...))
}
