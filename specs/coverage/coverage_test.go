// Package coverage checks the suite against the requirements catalog without running a
// single spec: every spec names known IDs, and every ID is covered by a spec or pending.
package coverage

import (
	"sync"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness/report"
	"github.com/chatconform/chatconform/specs" // importing it registers the specs
	"github.com/chatconform/chatconform/specs/catalog"
)

// preview is the suite's spec tree, built once for every test of the package.
var preview = sync.OnceValue(func() ginkgo.Report { return ginkgo.PreviewSpecs(specs.SuiteName) })

func TestCatalogCoverage(t *testing.T) {
	cat, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	preview := preview()
	if len(preview.SpecReports) == 0 {
		t.Fatal("the suite has no specs")
	}
	if err := report.CheckCoverage(cat, preview.SpecReports); err != nil {
		t.Fatal(err)
	}
	counts := report.Build(cat, preview, nil).Counts
	specCount := len(preview.SpecReports.WithLeafNodeType(types.NodeTypeIt))
	t.Logf("catalog: %d requirements, %d covered, %d pending, %d specs",
		counts.Requirements, counts.Covered, counts.Pending, specCount)
}
