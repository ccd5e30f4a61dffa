package verdicts_test

import (
	"encoding/pem"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// TestExitCodes: the runner's exit status tells CI what happened: 0 conformant, 1 not (see
// TestOwnerPermissionVerdicts), 2 invalid settings, 3 a target that cannot be set up; for 2 and
// 3 one line says what, and no report says anything about requirements.
func TestExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the runner")
	}
	fake := fakeserver.New()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	defer fake.Close()
	fx := fixtures.Default()
	owner, _ := fx.UserByRole(fixtures.RoleOwner)
	member, _ := fx.UserByRole(fixtures.RoleMember)
	bin := runner(t)

	cases := []struct {
		name string
		args []string
		code int
		says string
	}{
		{"conformant", []string{"-chatconform.url", srv.URL, "-chatconform.owner-email", owner.Email,
			"-chatconform.owner-api-key", owner.APIKey, "-ginkgo.label-filter=req:OP06-09"}, 0, ""},
		{"invalid setting", []string{"-chatconform.feature-level", "abc"}, 2, "invalid settings: invalid -chatconform.feature-level"},
		{"a mistyped setting", []string{"run", "-chatconform.ulr", srv.URL}, 2, "flag provided but not defined: -chatconform.ulr (did you mean -chatconform.url?)"},
		{"a mistyped command", []string{"rnu"}, 2, `unknown command "rnu" for "chatconform" Did you mean this? run`},
		{"unreachable URL", []string{"-chatconform.url", "http://127.0.0.1:9", "-chatconform.owner-email", owner.Email,
			"-chatconform.owner-api-key", owner.APIKey}, 3, "cannot set up the target: http://127.0.0.1:9: reading GET /server_settings"},
		{"wrong key", []string{"-chatconform.url", srv.URL, "-chatconform.owner-email", owner.Email,
			"-chatconform.owner-api-key", "WrongKey000000000000000000000000"}, 3, `HTTP 401: error UNAUTHORIZED "Invalid API key"; give an organization owner's email and API key`},
		{"a member's key", []string{"-chatconform.url", srv.URL, "-chatconform.owner-email", member.Email,
			"-chatconform.owner-api-key", member.APIKey}, 3, "has role 400, but the owner must have role 100; give an organization owner's"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "CHATCONFORM_REPORT_DIR=" + dir}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			_, reportErr := os.Stat(filepath.Join(dir, "conformance.json"))
			if tc.code < 2 {
				if reportErr != nil {
					t.Errorf("no report: %v", reportErr)
				}
				// Not a terminal: plain lines, no colour codes; the summary says where the reports are.
				if out := stdout.String(); strings.Contains(out, "\x1b[") || !strings.Contains(out, "reports: "+dir) {
					t.Errorf("console output has colour codes or lacks the reports' place:\n%s", out)
				}
				return
			}
			if reportErr == nil {
				t.Error("a report was written for a run that checked no requirement")
			}
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], tc.says) {
				t.Errorf("stderr %q: want one line saying %q", stderr.String(), tc.says)
			}
		})
	}
}

// TestTLSSettings: a target with a certificate of its own CA is refused (exit 3) unless the CA
// file is given; insecure-skip-verify accepts it and says so in the console and the report.
func TestTLSSettings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the runner")
	}
	fake := fakeserver.New()
	srv := httptest.NewTLSServer(fake)
	defer srv.Close()
	defer fake.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	bin := runner(t)
	base := []string{"-chatconform.url", srv.URL, "-chatconform.owner-email", owner.Email, "-chatconform.owner-api-key", owner.APIKey,
		"-ginkgo.label-filter=req:OP06-09"}
	for _, tc := range []struct {
		name    string
		extra   []string
		code    int
		warning bool
	}{
		{"an unknown CA", nil, 3, false},
		{"the CA file", []string{"-chatconform.ca-file", ca}, 0, false},
		{"insecure", []string{"-chatconform.insecure-skip-verify=true"}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, append(append([]string{}, base...), tc.extra...)...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "CHATCONFORM_REPORT_DIR=" + dir}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			}
			if code != tc.code {
				t.Fatalf("exit %d, want %d:\n%s", code, tc.code, stderr.String())
			}
			if warned := strings.Contains(stderr.String(), "insecure-skip-verify is on"); warned != tc.warning {
				t.Errorf("console warning %v, want %v:\n%s", warned, tc.warning, stderr.String())
			}
			if tc.code == 0 {
				report, _ := os.ReadFile(filepath.Join(dir, "conformance.json"))
				if warned := strings.Contains(string(report), "insecure-skip-verify is on"); warned != tc.warning {
					t.Errorf("report warning %v, want %v", warned, tc.warning)
				}
			}
		})
	}
}

// TestSubcommands: version, list and serve answer as docs/running.md says.
func TestSubcommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the runner")
	}
	bin := runner(t)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"version"}, "requirements of the API document, up to feature level"},
		{[]string{"list"}, "OP06-09"},
		{[]string{"list", "--coverage"}, "spec: Operation 6"},
		{[]string{"serve", "-version"}, "fakeserver "},
		// Against the in-process fake: one requirement selected; its spec also names ERR-04, which is
		// then partial (its other specs did not run).
		{[]string{"run", "-only-requirements", "OP06-09", "-chatconform.report-dir", t.TempDir()}, "352 requirements: 1 passed, 1 partial, 0 failed, 350 skipped"},
		{[]string{"run", "-only-operations", "8", "-only-features", "topics", "-chatconform.report-dir", t.TempDir()}, " 0 failed,"},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), tc.says) {
			t.Errorf("chatconform %v: %v, output lacks %q:\n%.500s", tc.args, err, tc.says, out)
		}
	}
}
