package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/internal/testctx"
)

// TestResetKeepsTheFlags starts the binary with a fixture, -feature-level and -config, changes
// all of it through PATCH /_fake/config, and resets: the level, the configuration and the
// fixture's realm are the ones of the start again.
func TestResetKeepsTheFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fake")
	}
	t.Parallel()
	ctx := testctx.Context(t)
	fixture := filepath.Join(t.TempDir(), "realm.yaml")
	if err := os.WriteFile(fixture, []byte(strings.Replace(string(fixtures.DefaultYAML()), "name: ", "name: Flagged ", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(t.TempDir(), "settings.json") // the container passes them inline
	if err := os.WriteFile(settings, []byte(`{"push_configured": true, "rate_limit_requests": 5000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	url, stop := startFake(ctx, t, "-fixture", fixture, "-feature-level", "300", "-config", "@"+settings)
	defer func() { _, _ = stop() }()
	call := func(method, path, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, method, url+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Test", "reset keeps the flags")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var env map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: HTTP %d %v %v", method, path, resp.StatusCode, env, err)
		}
		return env
	}
	state := func() string {
		cfg := call(http.MethodGet, "/_fake/config", "")["config"].(map[string]any)
		settings := call(http.MethodGet, "/api/v1/server_settings", "")
		out, _ := json.Marshal([]any{settings["zulip_feature_level"], settings["realm_name"], cfg["push_configured"], cfg["rate_limit_requests"]})
		return string(out)
	}
	// The banner's "control at …/_fake/" is the inspector's page.
	if resp, err := http.Get(url + "/_fake/"); err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /_fake/: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	const started = `[300,"Flagged Chatconform Test Realm",true,5000]`
	if got := state(); got != started {
		t.Fatalf("at start: %s, want %s", got, started)
	}
	call(http.MethodPatch, "/_fake/config", `{"feature_level": 100, "push_configured": false, "rate_limit_requests": 0}`)
	if got := state(); got == started {
		t.Fatalf("the patch changed nothing: %s", got)
	}
	call(http.MethodPost, "/_fake/reset", "")
	if got := state(); got != started {
		t.Errorf("after POST /_fake/reset: %s, want the start's %s", got, started)
	}
}

// TestBadStartFlags: a level out of range, settings the control API would refuse or a stray
// argument (which would hide every flag after it) end the binary at once with exit status 2 and one line that names the flag.
func TestBadStartFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fake")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "fakeserver")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the fake: %v\n%s", err, out)
	}
	missing := filepath.Join(t.TempDir(), "missing.json")
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-feature-level", "-3"}, "-feature-level must be 1 to 10000"},
		{[]string{"-feature-level", "20000"}, "-feature-level must be 1 to 10000"},
		{[]string{"-config", `{"push_configurd": true}`}, "-config: invalid settings: Unknown setting: push_configurd"},
		{[]string{"-config", `{"feature_level": 0}`}, "-config: invalid settings: feature_level must be between 1 and 10000"},
		{[]string{"-config", `[true]`}, "-config: invalid settings: not one JSON object"},
		{[]string{"-config", "@" + missing}, "-config: open " + missing},
		{[]string{"extra", "-feature-level", "200"}, `unexpected argument "extra"`},
	} {
		cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0", "-quiet"}, tc.flags...)...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
			t.Errorf("fakeserver %q: %v, printed %q; want exit 2 and one line with %q", tc.flags, err, out, tc.want)
		}
	}
}
