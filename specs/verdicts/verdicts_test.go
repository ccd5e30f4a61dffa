// Package verdicts_test runs the conformance runner against fakes that get a rule wrong or lack
// a setup, and checks the verdicts it reports: a refusal of what the owner was declared to
// hold is a failure, never a skip; what the owner is known to lack is skipped before any
// request, with the reason; a requirement of which some specs ran and others did not is
// partial, not passed.
package verdicts_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/exitstatus"
	"github.com/chatconform/chatconform/harness/report"
)

// built is the chatconform command, built once for the whole test binary: the tests that run
// it would otherwise each link it again.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// TestMain removes the runner built for the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// runner returns the chatconform command, building it on first use.
func runner(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "chatconform-runner"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "chatconform")
		out, err := exec.Command("go", "build", "-o", built.bin, "github.com/chatconform/chatconform/cmd/chatconform").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("%w\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatalf("building the runner: %v", built.err)
	}
	return built.bin
}

// wholeRuns begins a test that runs the whole suite (why says how often): skipped with -short,
// run beside the package's other such tests (a run of the runner waits on its target about as
// much as it works), and given the runner.
func wholeRuns(t *testing.T, why string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	t.Parallel()
	return runner(t)
}

// run runs the runner against base with the given extra environment and label filter, and
// returns its exit status and report.
func run(t *testing.T, bin, base string, owner fixtures.User, filter string, env ...string) (int, *report.Conformance) {
	t.Helper()
	args := []string{}
	if filter != "" {
		args = append(args, "-ginkgo.label-filter="+filter)
	}
	run := runIn(t, bin, base, owner, t.TempDir(), args, env)
	return run.code, run.report
}

// runResult is what a run of the runner left: its exit status, its console and its report.
type runResult struct {
	code    int
	console string
	report  *report.Conformance
}

// runIn runs the runner with args and the extra environment against base as owner, its
// reports in dir.
func runIn(t *testing.T, bin, base string, owner fixtures.User, dir string, args, env []string) runResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"CHATCONFORM_URL=" + base, "CHATCONFORM_OWNER_EMAIL=" + owner.Email,
		"CHATCONFORM_OWNER_API_KEY=" + owner.APIKey, "CHATCONFORM_REPORT_DIR=" + dir}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	code, err := exitstatus.Of(err)
	if err != nil {
		t.Fatalf("running the runner: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "conformance.json"))
	if err != nil {
		t.Fatalf("no report (exit %d): %v\n%s", code, err, out)
	}
	var c report.Conformance
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("report: %v", err)
	}
	return runResult{code: code, console: string(out), report: &c}
}

func requirement(t *testing.T, c *report.Conformance, id string) report.Requirement {
	t.Helper()
	for _, r := range c.Requirements {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no requirement %s in the report", id)
	return report.Requirement{}
}

// TestOwnerPermissionVerdicts: the fixture's owner may create users but not change emails.
func TestOwnerPermissionVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the runner")
	}
	fx := fixtures.Default()
	var owner fixtures.User
	for i, u := range fx.Users {
		if u.Role == fixtures.RoleOwner {
			fx.Users[i].CanChangeUserEmails = false
			owner = fx.Users[i]
		}
	}
	fake := fakeserver.New(fakeserver.WithFixture(fx))
	srv := httptest.NewServer(fake)
	defer srv.Close()
	defer fake.Close()
	bin := runner(t)
	const filter = "req:OP02-12"
	// The two specs in which the owner changes an email: the operation's own and the role
	// matrix's owner cell; the refusals to others must pass in both runs.
	ownersChange := func(spec string) bool {
		return strings.Contains(spec, "holding can_change_user_emails") || strings.Contains(spec, "new_email (operation 2) owner succeeds")
	}
	onlyOwnersChanges := func(specs []string) bool {
		for _, s := range specs {
			if !ownersChange(s) {
				return false
			}
		}
		return len(specs) == 2
	}

	t.Run("declared but refused is a failure", func(t *testing.T) {
		code, c := run(t, bin, srv.URL, owner, filter, "CHATCONFORM_OWNER_PERMISSIONS=can_create_users,can_change_user_emails")
		r := requirement(t, c, "OP02-12")
		if code != 1 || r.Status != report.Failed {
			t.Fatalf("exit %d, OP02-12 %s (%s): want exit 1 and failed", code, r.Status, r.Reason)
		}
		var failed []string
		for _, f := range r.Failures {
			failed = append(failed, f.Spec)
			// The refused change is among the failure's exchanges, structured and redacted.
			refused := slices.ContainsFunc(f.Exchanges, func(e harness.Exchange) bool {
				return e.Method == "PATCH" && e.Status >= 400 && strings.Contains(e.ResponseBody, `"result":"error"`) &&
					slices.ContainsFunc(e.RequestHeaders["Authorization"], func(v string) bool { return strings.HasSuffix(v, ":****") })
			})
			if !refused {
				t.Errorf("failure of %q: no refused PATCH with redacted credentials among its %d exchanges", f.Spec, len(f.Exchanges))
			}
		}
		if !onlyOwnersChanges(failed) {
			t.Errorf("failed specs %q: want the owner's two email changes alone", failed)
		}
	})

	t.Run("known to lack is skipped up front and the requirement is partial", func(t *testing.T) {
		code, c := run(t, bin, srv.URL, owner, filter)
		r := requirement(t, c, "OP02-12")
		if code != 0 || r.Status != report.Partial {
			t.Fatalf("exit %d, OP02-12 %s (%s): want exit 0 and partial", code, r.Status, r.Reason)
		}
		if !onlyOwnersChanges(r.NotRun) {
			t.Errorf("not run %q: want the owner's two email changes alone", r.NotRun)
		}
		if !strings.Contains(r.Reason, "lacks the can_change_user_emails permission (discovered)") {
			t.Errorf("reason %q does not say the owner lacks the permission", r.Reason)
		}
	})
}

// TestWildcardRulesNeedTheThreshold: the rules on wildcard mentions where there are many
// recipients apply to every target, but the document gives no number for "many". Against a
// target that is not known to be the fake and without the setting they are skipped, as needing
// that setup and naming it, never reported not applicable; with the setting they run and pass.
func TestWildcardRulesNeedTheThreshold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the runner")
	}
	fx := fixtures.Default()
	owner, _ := fx.UserByRole(fixtures.RoleOwner)
	fake := fakeserver.New(fakeserver.WithFixture(fx))
	srv := httptest.NewServer(fake)
	defer srv.Close()
	defer fake.Close()
	bin := runner(t)
	wildcardRules := []string{"ERR-08", "ERR-09", "LIMIT-13", "LIMIT-14", "OP01-24", "OP01-25"}
	filter := "req:" + strings.Join(wildcardRules, " || req:")
	// Without the config capability the harness cannot ask the fake for its threshold.
	const noControl = "CHATCONFORM_CAPABILITIES=none"

	t.Run("without the threshold they are skipped, needing it", func(t *testing.T) {
		_, c := run(t, bin, srv.URL, owner, filter, noControl)
		for _, id := range wildcardRules {
			r := requirement(t, c, id)
			if r.Status != report.Skipped || !strings.HasPrefix(r.Reason, harness.NeedsSetupPrefix) ||
				!slices.Contains(r.RunWith, "set `--wildcard-mention-threshold`") {
				t.Errorf("%s %s (%s, run with %q): want skipped, needing setup, naming the threshold setting", id, r.Status, r.Reason, r.RunWith)
			}
		}
	})

	t.Run("with the threshold they run", func(t *testing.T) {
		code, c := run(t, bin, srv.URL, owner, filter, noControl, "CHATCONFORM_WILDCARD_MENTION_THRESHOLD=15")
		for _, id := range wildcardRules {
			if r := requirement(t, c, id); r.Status != report.Passed {
				t.Errorf("%s %s (%s): want passed", id, r.Status, r.Reason)
			}
		}
		if code != 0 {
			t.Errorf("exit %d, want 0", code)
		}
	})
}
