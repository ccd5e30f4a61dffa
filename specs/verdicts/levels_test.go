package verdicts_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness/report"
	"github.com/chatconform/chatconform/specs/catalog"
)

// suiteLevels are the feature levels the suite runs against the fake at: one below every
// boundary the document names, ones between that put the real server's changelog forms the
// harness meets on either side (docs/feature-levels.md; 450: the early push registration),
// and the fake's current level.
var suiteLevels = []int{117, 160, 200, 300, 355, 400, 450, fixtures.Default().Realm.FeatureLevel}

// TestSuiteAtOlderLevels runs the whole suite against the fake acting as a server of each level:
// every requirement of a later level (or of a form replaced by then) must be reported not
// applicable, every other one passed: the suite skips what a level lacks and checks what it has.
func TestSuiteAtOlderLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runner and runs the whole suite at each level")
	}
	cat, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	bin := runner(t)
	for _, level := range suiteLevels {
		t.Run(fmt.Sprintf("level %d", level), func(t *testing.T) {
			fx := fixtures.Default()
			fx.Realm.FeatureLevel = level
			owner, _ := fx.UserByRole(fixtures.RoleOwner)
			fake := fakeserver.New(fakeserver.WithFixture(fx))
			srv := httptest.NewServer(fake)
			defer srv.Close()
			defer fake.Close()

			code, c := run(t, bin, srv.URL, owner, "")
			wantNA := 0
			for _, r := range cat.Requirements {
				if later(r, level) {
					wantNA++
				}
			}
			n := c.Counts
			t.Logf("level %d: %d passed, %d not applicable, %d partial, %d skipped, %d failed (exit %d)",
				level, n.Passed, n.NotApplicable, n.Partial, n.Skipped, n.Failed, code)
			if code != 0 || n.Failed != 0 || n.Skipped != 0 || n.Partial != 0 {
				for _, r := range c.Requirements {
					if r.Status != report.Passed && r.Status != report.NotApplicable {
						t.Errorf("%s %s: %s", r.ID, r.Status, r.Reason)
					}
				}
				t.Fatalf("exit %d: want every requirement passed or not applicable", code)
			}
			if n.NotApplicable != wantNA || n.Passed != n.Requirements-wantNA {
				t.Errorf("%d not applicable and %d passed: want the %d requirements of later levels not applicable and the other %d passed",
					n.NotApplicable, n.Passed, wantNA, n.Requirements-wantNA)
				for _, r := range c.Requirements {
					if later(catalogEntry(cat, r.ID), level) != (r.Status == report.NotApplicable) {
						t.Errorf("%s (min_level %d) is %s: %s", r.ID, r.MinLevel, r.Status, r.Reason)
					}
				}
			}
		})
	}
}

// later reports whether r does not apply at level: it needs a later level, or names a form
// replaced at or before it.
func later(r catalog.Requirement, level int) bool {
	return r.MinLevel > level || (r.BelowLevel > 0 && level >= r.BelowLevel)
}

func catalogEntry(cat *catalog.Catalog, id string) catalog.Requirement {
	r, _ := cat.Get(id)
	return r
}
