// Package browser runs headless Chromium for the project's page tests (the HTML report, the
// fake's inspector): the DOM after the page's scripts ran, or a screenshot. Chromium is
// Debian's, installed by .ci/ensure-chromium; where it is missing the test is skipped, saying so.
package browser

import (
	"context"
	"fmt"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// Chromium is a headless Chromium for one test.
type Chromium struct {
	t    testing.TB
	path string
}

// Open finds Chromium or skips the test with the reason. With -short (the race run) it skips:
// the work is Chromium's, which the race detector does not see.
func Open(t testing.TB) *Chromium {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Chromium; skipped with -short")
	}
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("needs Chromium (make test installs Debian's chromium where it can): ", err)
	}
	return &Chromium{t: t, path: path}
}

// run starts Chromium headless on url with the given flags, in a profile of its own, and
// returns what it printed; a failure fails the test.
func (c *Chromium) run(url string, flags ...string) string {
	c.t.Helper()
	ctx, cancel := c.patience()
	defer cancel()
	args := append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--user-data-dir=" + c.t.TempDir()}, flags...)
	out, err := exec.CommandContext(ctx, c.path, append(args, url)...).Output()
	if err != nil {
		c.t.Fatalf("chromium %v %s: %v", flags, url, err)
	}
	return string(out)
}

// DOM returns the page's DOM once loaded and its scripts have run.
func (c *Chromium) DOM(url string) string { return c.run(url, "--dump-dom") }

// Visit opens url and gives the page's scripts budget of virtual time to finish what they
// started, for a test that watches what a page sends rather than what it shows. requested is
// closed by the test once the page's server saw the request for url. A URL that never becomes
// a page (a download, on which headless Chromium at times waits for ever) is left a few times
// the budget after that request, with every process of that Chromium ended: the wait starts
// at the request, so a Chromium slow to start on a busy machine still gets its whole budget.
func (c *Chromium) Visit(url string, budget time.Duration, requested <-chan struct{}) {
	c.t.Helper()
	ctx, cancel := c.patience()
	defer cancel()
	cmd := exec.Command(c.path, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--user-data-dir="+c.t.TempDir(), "--dump-dom", fmt.Sprintf("--virtual-time-budget=%d", budget.Milliseconds()), url)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		c.t.Fatalf("chromium %s: %v", url, err)
	}
	var waited error
	exited := make(chan struct{})
	go func() { waited = cmd.Wait(); close(exited) }()
	var leave <-chan time.Time // after the request: a few times the budget
	for {
		select {
		case <-exited:
			if waited != nil {
				c.t.Fatalf("chromium %s: %v", url, waited)
			}
			return
		case <-requested:
			requested, leave = nil, time.After(3*budget+5*time.Second)
			continue
		case <-leave:
		case <-ctx.Done():
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		return
	}
}

// patience is how long Chromium may take: ten minutes, or until shortly before the test's own
// deadline (go test -timeout) if that comes first. Not a bound a busy machine reaches (a
// Chromium that starts slowly still finishes); it stops only one that hangs.
func (c *Chromium) patience() (context.Context, context.CancelFunc) {
	deadline := time.Now().Add(10 * time.Minute)
	if t, ok := c.t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := t.Deadline(); ok && d.Add(-time.Minute).Before(deadline) {
			deadline = d.Add(-time.Minute)
		}
	}
	return context.WithDeadline(context.Background(), deadline)
}

// Screenshot saves a PNG of the page, width × height pixels, to path.
func (c *Chromium) Screenshot(url, path string, width, height int) {
	c.run(url, "--screenshot="+path, fmt.Sprintf("--window-size=%d,%d", width, height))
}
