package verdicts_test

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness/diff"
)

// TestDiff runs chatconform diff between the reference fake and a second fake: the same
// fixture lists no difference; the fixture at feature level 400 lists the verdicts the level
// changes and the answers it shapes otherwise (attachments' messages for message_ids).
func TestDiff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runner and runs the suite four times")
	}
	bin := runner(t)
	lower := fixtures.Default()
	lower.Realm.FeatureLevel = 400
	for _, tc := range []struct {
		name    string
		fixture *fixtures.Fixture
		code    int
		check   func(t *testing.T, specs []diff.Spec)
	}{
		{"the same fixture", fixtures.Default(), 0, func(t *testing.T, specs []diff.Spec) {
			if len(specs) > 0 {
				t.Errorf("%d specs differ between two fakes on the same fixture, the first: %+v", len(specs), specs[0])
			}
		}},
		{"feature level 400", lower, 1, func(t *testing.T, specs []diff.Spec) {
			verdict := find(specs, "gives create_time in UNIX seconds")
			if verdict == nil || verdict.StateA != "passed" || verdict.StateB != "skipped" || !strings.Contains(verdict.ReasonB, "not applicable: needs feature level 443") {
				t.Errorf("create_time in seconds (level 443): want passed on A and not applicable on B, got %+v", verdict)
			}
			answer := find(specs, "is an empty list when the edit removed no file")
			if answer == nil || answer.StateA != answer.StateB ||
				!slices.ContainsFunc(answer.Differences, func(d string) bool { return strings.Contains(d, "field attachments[].message_ids only on A") }) ||
				!slices.ContainsFunc(answer.Differences, func(d string) bool { return strings.Contains(d, "field attachments[].messages only on B") }) {
				t.Errorf("the attachments' message_ids (level 472) not listed as an answer that differs: %+v", answer)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := fakeserver.New(fakeserver.WithFixture(tc.fixture))
			srv := httptest.NewServer(fake)
			defer srv.Close()
			defer fake.Close()
			owner, _ := tc.fixture.UserByRole(fixtures.RoleOwner)
			out := t.TempDir()
			cmd := exec.Command(bin, "diff", "--b", srv.URL, "--b-owner-email", owner.Email, "--b-owner-api-key", owner.APIKey, "--out", out)
			console, err := cmd.CombinedOutput()
			code := 0
			if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Fatalf("exit status %d, want %d:\n%s", code, tc.code, console)
			}
			data, err := os.ReadFile(filepath.Join(out, "diff.json"))
			if err != nil {
				t.Fatal(err)
			}
			var written struct{ Specs []diff.Spec }
			if err := json.Unmarshal(data, &written); err != nil {
				t.Fatal(err)
			}
			tc.check(t, written.Specs)
		})
	}
}

// TestDiffTargetDown: a side that cannot be set up ends the diff with exit status 3 and one
// line naming the side, before anything is compared.
func TestDiffTargetDown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runner")
	}
	out := t.TempDir()
	cmd := exec.Command(runner(t), "diff", "--a", "http://127.0.0.1:1", "--a-owner-email", "owner@example.test",
		"--a-owner-api-key", "OwnerKey000000000000000000000001", "--out", out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.HasPrefix(stderr.String(), "chatconform: target A: cannot set up the target") ||
		strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
		t.Errorf("exit %v, stderr %q: want status 3 and one line naming target A", err, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "diff.json")); err == nil {
		t.Error("diff.json written although a target could not be set up")
	}
}

func find(specs []diff.Spec, suffix string) *diff.Spec {
	for i, s := range specs {
		if strings.HasSuffix(s.Spec, suffix) {
			return &specs[i]
		}
	}
	return nil
}
