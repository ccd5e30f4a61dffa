package verdicts_test

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/exitstatus"
)

// TestExitCodes: the runner's exit status tells CI what happened: 0 conformant, 1 not (see
// TestOwnerPermissionVerdicts), 2 invalid settings, 3 a run that cannot be set up; for 2 and 3
// one line says what, and no report says anything about requirements. A run that would check
// no requirement is invalid settings, never "conformant"; every setup failure (an account of
// the configuration, the report directory, the provisioning) is found before the first spec.
func TestExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the runner")
	}
	fake := fakeserver.New()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	defer fake.Close()
	// A fake of its own (no cast made by the other cases) that refuses to create users: the
	// preflight passes, the provisioning fails.
	fresh := fakeserver.New()
	defer fresh.Close()
	noUsers := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/users" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"result":"error","msg":"User not authorized for this query","code":"BAD_REQUEST"}`))
			return
		}
		fresh.ServeHTTP(w, r)
	}))
	defer noUsers.Close()
	fx := fixtures.Default()
	owner, _ := fx.UserByRole(fixtures.RoleOwner)
	member, _ := fx.UserByRole(fixtures.RoleMember)
	bin := runner(t)
	config := func(body string) string {
		path := filepath.Join(t.TempDir(), "chatconform.yaml")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	wrongKey := config("users:\n  member: {email: " + member.Email + ", api_key: WrongKey000000000000000000000000}\n")
	wrongRole := config("users:\n  moderator: {email: " + member.Email + ", api_key: " + member.APIKey + "}\n")
	notADir := config("")
	target := func(url string, more ...string) []string {
		return append([]string{"-chatconform.url", url, "-chatconform.owner-email", owner.Email, "-chatconform.owner-api-key", owner.APIKey}, more...)
	}

	cases := []struct {
		name   string
		args   []string
		code   int
		says   string
		report bool // a report is written (always for 0 and 1)
	}{
		{"conformant", target(srv.URL, "-ginkgo.label-filter=req:OP06-09"), 0, "", true},
		{"conformant, the flags' short style", []string{"--url", srv.URL, "--owner-email", owner.Email, "--owner-api-key", owner.APIKey,
			"--ginkgo.label-filter=req:OP06-09"}, 0, "", true},
		{"invalid setting", []string{"-chatconform.feature-level", "abc"}, 2, "invalid settings: invalid -chatconform.feature-level", false},
		{"invalid setting, short style", []string{"--feature-level", "abc"}, 2, `invalid settings: invalid --feature-level "abc"`, false},
		{"a mistyped setting", []string{"run", "-chatconform.ulr", srv.URL}, 2, "flag provided but not defined: -chatconform.ulr (did you mean -chatconform.url?)", false},
		{"a mistyped command", []string{"rnu"}, 2, `unknown command "rnu" for "chatconform" Did you mean this? run`, false},
		{"a label filter that selects nothing", target(srv.URL, "-ginkgo.label-filter=req:NOPE-01"), 2,
			"the filters select no spec of any requirement (--ginkgo.label-filter=req:NOPE-01)", false},
		{"a focus that selects nothing", target(srv.URL, "--ginkgo.focus=no spec is called this"), 2,
			"the filters select no spec of any requirement (--ginkgo.focus=no spec is called this)", false},
		{"selections that exclude each other", []string{"--only-requirements", "OP06-09", "--ginkgo.skip=."}, 2,
			"the filters select no spec of any requirement (--only-requirements=OP06-09 --ginkgo.skip=.)", false},
		{"-only settings with no requirement in common", []string{"--only-operations", "8", "--only-features", "push"}, 2,
			"the --only-… settings select no requirement of the catalog together", false},
		{"a label filter of bad syntax", target(srv.URL, "-ginkgo.label-filter=req:OP06-09 || ("), 2,
			`--ginkgo.label-filter "req:OP06-09 || (": req:OP06-09 || ( Mismatched '(' - could not find matching ')'.`, false},
		{"a focus of bad syntax", []string{"-ginkgo.focus=("}, 2, `--ginkgo.focus "(": error parsing regexp: missing closing )`, false},
		{"a dry run", target(srv.URL, "--ginkgo.dry-run"), 2, "--ginkgo.dry-run checks nothing", false},
		{"nothing selected applies", target(srv.URL, "--feature-level", "2", "--only-requirements", "CONV-09"), 2,
			"no requirement applied to the target: every selected spec was skipped or not applicable", true},
		{"unreachable URL", target("http://127.0.0.1:9"), 3,
			"cannot set up the target: http://127.0.0.1:9: reading GET /server_settings", false},
		{"wrong key", []string{"-chatconform.url", srv.URL, "-chatconform.owner-email", owner.Email,
			"-chatconform.owner-api-key", "WrongKey000000000000000000000000"}, 3,
			`HTTP 401: error UNAUTHORIZED "Invalid API key"; give an organization owner's email and API key (-chatconform.owner-email; -chatconform.owner-api-key)`, false},
		{"a member's key", []string{"-chatconform.url", srv.URL, "-chatconform.owner-email", member.Email,
			"-chatconform.owner-api-key", member.APIKey}, 3, "has role 400, but the owner must have role 100; give an organization owner's", false},
		{"a configured account's wrong key", target(srv.URL, "--config", wrongKey), 3,
			`checking the member: GET /api/v1/users/me as ` + member.Email + `: HTTP 401: error UNAUTHORIZED "Invalid API key"; give the email and API key of an account with that role (users.member in ` + wrongKey + ")", false},
		{"a configured account's wrong role", target(srv.URL, "--config", wrongRole), 3,
			"checking the moderator: " + member.Email + " has role 400, but the moderator must have role 300; give the email and API key of an account with that role (users.moderator in " + wrongRole + ")", false},
		{"a report directory that cannot be made", target(srv.URL, "--report-dir", filepath.Join(notADir, "reports")), 3,
			"cannot set up the run: report directory " + filepath.Join(notADir, "reports") + " (--report-dir): mkdir", false},
		{"provisioning refused", target(noUsers.URL), 3,
			"cannot set up the target: harness: connecting to " + noUsers.URL + ": provisioning the staff administrators: staff administrator 1", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "CHATCONFORM_REPORT_DIR=" + dir}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			code, err := exitstatus.Of(cmd.Run())
			if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%.2000s", code, tc.code, stderr.String())
			}
			_, reportErr := os.Stat(filepath.Join(dir, "conformance.json"))
			if tc.report != (reportErr == nil) {
				t.Errorf("report written: %v, want %v", reportErr == nil, tc.report)
			}
			if tc.code < 2 {
				// Not a terminal: plain lines, no colour codes; the summary says where the reports are.
				if out := stdout.String(); strings.Contains(out, "\x1b[") || !strings.Contains(out, "reports: "+dir) {
					t.Errorf("console output has colour codes or lacks the reports' place:\n%s", out)
				}
				return
			}
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], tc.says) {
				t.Errorf("stderr %q: want one line saying %q", stderr.String(), tc.says)
			}
			if !tc.report && strings.TrimSpace(stdout.String()) != "" {
				t.Errorf("stdout of a run that did not start:\n%.2000s", stdout.String())
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
			code, err := exitstatus.Of(cmd.Run())
			if err != nil {
				t.Fatal(err)
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
		{[]string{"list", "-coverage"}, "spec: Operation 6"}, // one dash, as run's and serve's flags take it
		{[]string{"serve", "--version"}, "fakeserver "},
		{[]string{"serve", "-version"}, "fakeserver "},
		// Against the in-process fake: one requirement selected; its spec also names ERR-04, which is
		// then partial (its other specs did not run).
		{[]string{"run", "-only-requirements", "OP06-09", "-chatconform.report-dir", t.TempDir()}, "353 requirements: 1 passed, 1 partial, 0 failed, 0 blocked, 351 skipped"},
		{[]string{"run", "-only-operations", "8", "-only-features", "topics", "-chatconform.report-dir", t.TempDir()}, " 0 failed,"},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), tc.says) {
			t.Errorf("chatconform %v: %v, output lacks %q:\n%.500s", tc.args, err, tc.says, out)
		}
	}
}

// TestRunHelp: `run --help` lists every setting with its flag, environment variable, file key,
// default and meaning, and run's own flags, where the binary's and the image's users find them.
func TestRunHelp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the runner")
	}
	bin := runner(t)
	for _, args := range [][]string{{"run", "--help"}, {"run", "-h"}, {"help", "run"}} {
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		help := string(out)
		for _, s := range harness.Settings {
			name := "--" + s.Name + "\n"
			if s.Flag == "" {
				name = s.YAML + " (file only)\n"
			}
			at := strings.Index(help, "\n  "+name)
			if at < 0 {
				t.Errorf("%v: no entry for setting %s (%q)", args, s.Name, name)
				continue
			}
			lines := strings.SplitN(help[at+len("\n  "+name):], "\n", 3)
			for _, want := range []string{s.Env, s.YAML, s.Default} {
				if want != "" && !strings.Contains(lines[0], want) {
					t.Errorf("%v: setting %s: %q lacks %q", args, s.Name, lines[0], want)
				}
			}
			if strings.TrimSpace(lines[1]) != s.Meaning {
				t.Errorf("%v: setting %s: meaning %q, want %q", args, s.Name, lines[1], s.Meaning)
			}
		}
		for _, flag := range []string{"--only-requirements", "--only-operations", "--only-sections", "--only-features", "--only-profile", "--fail-fast", "--ginkgo.label-filter", "Exit status: 0 conformant"} {
			if !strings.Contains(help, flag) {
				t.Errorf("%v: help lacks %s", args, flag)
			}
		}
	}
}
