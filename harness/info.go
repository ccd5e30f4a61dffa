package harness

import (
	"fmt"

	"github.com/onsi/ginkgo/v2"
)

// Info records what the target did where the document allows more than one behaviour (which
// event form, whether an undocumented guarantee held): information in the report and on the
// console of a failed spec or a verbose run (a passing run's console is its summary), never a
// verdict.
func Info(name, format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	fmt.Fprintf(ginkgo.GinkgoWriter, "information: %s: %s\n", name, text)
	if inSpec() {
		ginkgo.AddReportEntry(name, ginkgo.ReportEntryVisibilityFailureOrVerbose, text)
	}
}
