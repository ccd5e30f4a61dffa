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
	bin := wholeRuns(t, "builds the runner and runs the suite four times")
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
			t.Parallel()
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
			var written struct {
				Differences []diff.Group
				Specs       []diff.Spec
			}
			if err := json.Unmarshal(data, &written); err != nil {
				t.Fatal(err)
			}
			tc.check(t, written.Specs)
			// Every difference is named: none counts others instead.
			for _, g := range written.Differences {
				if strings.Contains(g.Difference, "… and ") {
					t.Errorf("diff.json lists %q as a difference", g.Difference)
				}
			}
			t.Logf("%s: %d differences in diff.json (%d specs); console: %s", tc.name, len(written.Differences), len(written.Specs), lastLines(string(console), 2))

			// The two recorded runs compared again without running anything give the same.
			again := t.TempDir()
			cmd = exec.Command(bin, "diff", filepath.Join(out, "a"), filepath.Join(out, "b", "conformance.json"), "--out", again)
			recompared, err := cmd.CombinedOutput()
			if code := exitOf(t, err); code != tc.code {
				t.Fatalf("diff of the recorded runs: exit %d, want %d:\n%s", code, tc.code, recompared)
			}
			if strings.Contains(string(recompared), "running the suite") {
				t.Errorf("diff of two recorded runs ran the suite:\n%s", recompared)
			}
			data2, err := os.ReadFile(filepath.Join(again, "diff.json"))
			if err != nil {
				t.Fatal(err)
			}
			var rewritten struct{ Differences []diff.Group }
			if err := json.Unmarshal(data2, &rewritten); err != nil {
				t.Fatal(err)
			}
			if len(rewritten.Differences) != len(written.Differences) {
				t.Errorf("the recorded runs compared again: %d differences, the diff's own %d", len(rewritten.Differences), len(written.Differences))
			}
		})
	}
}

// TestDiffTargetDown: a side that cannot be set up ends the diff with exit status 3 and one
// line naming the side and diff's own flags, before either run and before anything is
// compared: an unreachable B is found before A runs. Recorded runs that are not there, or
// paths given with a target's flags, are invalid settings.
func TestDiffTargetDown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runner")
	}
	bin := runner(t)
	owner := []string{"owner@example.test", "OwnerKey000000000000000000000001"}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		prefix string
		names  string // a flag the message must name
	}{
		{"A unreachable", []string{"--a", "http://127.0.0.1:1", "--a-owner-email", owner[0], "--a-owner-api-key", owner[1]}, 3, "chatconform: target A: cannot set up the target", "--a"},
		{"B unreachable", []string{"--b", "http://127.0.0.1:1", "--b-owner-email", owner[0], "--b-owner-api-key", owner[1]}, 3, "chatconform: target B: cannot set up the target", "--b"},
		{"B without its owner", []string{"--b", "http://127.0.0.1:1"}, 2, "chatconform: target B:", "--b-owner-email"},
		{"recorded runs that are not there", []string{"nowhere-a", "nowhere-b"}, 2, "chatconform: invalid settings: A nowhere-a", ""},
		{"paths and a target", []string{"--b", "http://127.0.0.1:1", "x", "y"}, 2, "chatconform: invalid settings: --b name a target", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(bin, append(append([]string{"diff"}, tc.args...), "--out", out)...)
			var stderr, stdout strings.Builder
			cmd.Stderr, cmd.Stdout = &stderr, &stdout
			code := exitOf(t, cmd.Run())
			msg := strings.TrimSpace(stderr.String())
			if code != tc.code || !strings.HasPrefix(msg, tc.prefix) || strings.Contains(msg, "\n") || !strings.Contains(msg, tc.names) {
				t.Errorf("exit %d, stderr %q: want status %d and one line starting %q naming %q", code, msg, tc.code, tc.prefix, tc.names)
			}
			if strings.Contains(msg, "--url") || strings.Contains(msg, "--owner-email") || strings.Contains(msg, "chatconform.url") {
				t.Errorf("the message names run's flags, not diff's: %q", msg)
			}
			if strings.Contains(stdout.String(), "running the suite") {
				t.Errorf("a run started although a target could not be set up:\n%s", stdout.String())
			}
			if _, err := os.Stat(filepath.Join(out, "diff.json")); err == nil {
				t.Error("diff.json written although a target could not be set up")
			}
		})
	}
}

// exitOf is a command's exit status.
func exitOf(t *testing.T, err error) int {
	t.Helper()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// lastLines are the last n lines of text, on one line.
func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " / ")
}

func find(specs []diff.Spec, suffix string) *diff.Spec {
	for i, s := range specs {
		if strings.HasSuffix(s.Spec, suffix) {
			return &specs[i]
		}
	}
	return nil
}
