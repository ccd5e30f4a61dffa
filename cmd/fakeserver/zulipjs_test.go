package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/internal/testctx"
)

// zulipJSDir holds the Node project of the zulip-js test: package.json pins zulip-js,
// package-lock.json pins every package under it, e2e.mjs drives the fake.
const zulipJSDir = "testdata/zulipjs"

// The official JavaScript client against the fake binary: a password login, every zulip-js
// wrapper whose route the fake serves, the 21 operations through callEndpoint, and an event
// queue that sees its own message as raw Markdown. Any error reply fails, and so does any
// exchange that violates the fake's OpenAPI description (the binary runs with -check-openapi).
func TestZulipJS(t *testing.T) {
	if testing.Short() {
		t.Skip("installs zulip-js from npm and builds the fake; skipped with -short")
	}
	t.Parallel()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs Node.js and npm to run the official JavaScript client (zulip-js): %s is not installed", tool)
		}
	}
	ctx := testctx.Context(t)
	installZulipJS(ctx, t)

	url, stop := startFake(ctx, t, "-check-openapi")

	f := fixtures.Default()
	owner, bot := userOf(t, f, fixtures.RoleOwner), userOf(t, f, fixtures.RoleBot)
	run := exec.CommandContext(ctx, "node", "e2e.mjs")
	run.Dir = zulipJSDir
	run.Env = append(os.Environ(),
		"FAKE_URL="+url,
		"OWNER_EMAIL="+owner.Email, "OWNER_PASSWORD="+owner.Password,
		"BOT_EMAIL="+bot.Email, "BOT_API_KEY="+bot.APIKey,
		"JWT_KEY="+f.Realm.JWTKey,
	)
	out, runErr := run.CombinedOutput()
	t.Logf("zulip-js:\n%s", out)

	checked, fakeErr := stop()
	t.Log(strings.TrimSpace(checked))
	if runErr != nil {
		t.Errorf("zulip-js against the fake: %v", runErr)
	}
	if !regexp.MustCompile(`(?m)^[1-9][0-9]* passed, 0 failed$`).Match(out) {
		t.Errorf("zulip-js did not report its calls passing")
	}
	if fakeErr != nil || !strings.Contains(checked, ", 0 violations") {
		t.Errorf("the fake's OpenAPI check of the zulip-js exchanges failed (%v)", fakeErr)
	}
}

// installing serializes installZulipJS: two parallel tests call it.
var installing sync.Mutex

// installZulipJS installs the locked packages with npm ci, unless node_modules (ignored by
// git) already holds this very lock: make test stays cheap after the first run.
func installZulipJS(ctx context.Context, t *testing.T) {
	t.Helper()
	installing.Lock()
	defer installing.Unlock()
	lock, err := os.ReadFile(filepath.Join(zulipJSDir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	stamp := filepath.Join(zulipJSDir, "node_modules", ".chatconform-lock")
	if installed, err := os.ReadFile(stamp); err == nil && string(installed) == string(lock) {
		return
	}
	npm := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
	npm.Dir = zulipJSDir
	if out, err := npm.CombinedOutput(); err != nil {
		t.Fatalf("npm ci (installing zulip-js): %v\n%s", err, out)
	}
	if err := os.WriteFile(stamp, lock, 0o644); err != nil {
		t.Fatal(err)
	}
}

func userOf(t *testing.T, f *fixtures.Fixture, role string) fixtures.User {
	t.Helper()
	u, ok := f.UserByRole(role)
	if !ok {
		t.Fatalf("the default fixture has no %s", role)
	}
	return u
}

// startFake builds the fake's binary, starts it on a free loopback port with the given flags,
// and returns its URL and a stop function that interrupts it and returns what it printed after
// its first line (the OpenAPI check's report) and how it exited.
func startFake(ctx context.Context, t *testing.T, flags ...string) (string, func() (string, error)) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fakeserver")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the fake: %v\n%s", err, out)
	}
	fake := exec.CommandContext(ctx, bin, append([]string{"-addr", "127.0.0.1:0", "-quiet"}, flags...)...)
	stdout, err := fake.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	fake.Stderr = os.Stderr
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	url := ""
	if lines.Scan() {
		url = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`).FindString(lines.Text())
	}
	if url == "" {
		_ = fake.Process.Kill()
		t.Fatalf("the fake printed no URL: %q", lines.Text())
	}
	report := make(chan string)
	go func() {
		var rest strings.Builder
		for lines.Scan() {
			rest.WriteString(lines.Text() + "\n")
		}
		report <- rest.String()
	}()
	return url, func() (string, error) {
		_ = fake.Process.Signal(os.Interrupt)
		printed := <-report
		return printed, fake.Wait()
	}
}
