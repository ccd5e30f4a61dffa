package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/harness/explore"
	"github.com/chatconform/chatconform/harness/report"
)

// TestExploreExitStatus: explore exits as run does: 2 for invalid settings, 3 for a target it
// cannot use, 0 when a replayed sequence or a short exploration shows no difference (the fake
// against itself), whose reports are written.
func TestExploreExitStatus(t *testing.T) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "CHATCONFORM_") {
			t.Setenv(name, "")
		}
	}
	dir := t.TempDir()
	replay := filepath.Join(dir, "X01.json")
	script := `{"seed": 1, "steps": [
	  {"op": "create_channel", "actor": "owner", "method": "POST", "path": "/users/me/subscriptions", "learn": "c0", "channel": "c0",
	   "params": {"subscriptions": "[{\"name\":\"{name:c0}\"}]", "principals": "[{user:owner},{user:member}]"}},
	  {"op": "send_message", "actor": "member", "method": "POST", "path": "/messages", "channel": "c0",
	   "params": {"type": "stream", "to": "{channel:c0}", "topic": "t", "content": "/me waves"}}]}`
	if err := os.WriteFile(replay, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want int
	}{
		{"no steps", []string{"--steps", "0"}, exitBadSettings},
		{"a URL without credentials", []string{"--url", "http://127.0.0.1:1"}, exitBadSettings},
		{"a replay file that is not there", []string{"--replay", filepath.Join(dir, "none.json")}, exitBadSettings},
		{"an unreachable target", []string{"--url", "http://127.0.0.1:1", "--owner-email", "o@example.com", "--owner-api-key", "k"}, exitSetupFailed},
		{"a replay against the fake itself", []string{"--replay", replay}, exitConformant},
		{"a short exploration of the fake itself", []string{"--seed", "1", "--sequences", "1", "--steps", "10"}, exitConformant},
	} {
		t.Run(c.name, func(t *testing.T) {
			reports := t.TempDir()
			if got := runExplore(append(c.args, "--report-dir="+reports), io.Discard); got != c.want {
				t.Fatalf("exit status %d, want %d", got, c.want)
			}
			if c.want != exitConformant {
				return
			}
			// Its own report and the suite's formats beside the replay files, a replay's too.
			for _, name := range []string{explore.ReportFile, filepath.Join(explore.FindingsDir, report.JSONFile),
				filepath.Join(explore.FindingsDir, report.HTMLFile), filepath.Join(explore.FindingsDir, report.JUnitFile)} {
				if _, err := os.Stat(filepath.Join(reports, name)); err != nil {
					t.Errorf("no %s: %v", name, err)
				}
			}
		})
	}
}
