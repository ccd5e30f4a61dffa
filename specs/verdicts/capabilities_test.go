package verdicts_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/report"
)

// TestSuiteWithCapabilitySubsets: the reference passes its own suite whatever part of its
// control API a run may use. Without a capability the specs that need it are skipped for it
// (or for the setting the capability would have read), and nothing fails: not a spec that would wait on the fake's frozen clock (the default
// fixture's) without the clock capability, nor one that would need a reset or a journal.
func TestSuiteWithCapabilitySubsets(t *testing.T) {
	bin := wholeRuns(t, "builds the runner and runs the whole suite once per subset")
	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	for _, subset := range []string{"none", "config,reset,journal", "clock"} {
		t.Run(subset, func(t *testing.T) {
			t.Parallel()
			fake := fakeserver.New()
			srv := httptest.NewServer(fake)
			defer srv.Close()
			defer fake.Close()
			res := runIn(t, bin, srv.URL, owner, t.TempDir(), []string{"-capabilities=" + subset}, nil)
			n := res.report.Counts
			t.Logf("capabilities %s: %d passed, %d partial, %d skipped, %d not applicable, %d failed (exit %d)",
				subset, n.Passed, n.Partial, n.Skipped, n.NotApplicable, n.Failed, res.code)
			if res.code != 0 {
				t.Errorf("exit %d, want 0; %s", res.code, seedLine(res.console))
			}
			for _, r := range res.report.Requirements {
				switch r.Status {
				case report.Passed, report.NotApplicable:
				case report.Partial, report.Skipped:
					// Without the config capability the runner cannot read what it is otherwise
					// told (the owner's permissions, the wildcard threshold): a setup skip.
					if !strings.Contains(r.Reason, harness.NeedsCapabilityPrefix) && !strings.Contains(r.Reason, harness.NeedsSetupPrefix) {
						t.Errorf("%s %s for another reason than a capability or a setting: %s", r.ID, r.Status, r.Reason)
					}
				default:
					t.Errorf("%s %s: %s", r.ID, r.Status, r.Reason)
				}
			}
		})
	}
}
