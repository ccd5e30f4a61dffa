package explore_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/harness/explore"
	"github.com/chatconform/chatconform/harness/report"
)

// exploreMutants are mutants of the catalogue (cmd/mutants) whose broken rule lies on the
// paths the generator takes: explore alone must tell each from the reference.
var exploreMutants = []string{
	"recipient-id-per-message",
	"emoji-code-of-another-emoji",
	"is-me-message-never",
	"topic-max-id-of-first-message",
	"propagate-mode-default-change-all",
	"unmute-ignored",
	"code-unauthorized-principal-as-bad-request",
	"vcall-token-event-stale",        // the control steps: a token handed out through the control API
	"batch-stopped-reports-complete", // the control steps: batches bounded through the control API
	"mute-topic-refused-at-limit",    // a topic of exactly the bound, muted by a subscriber
}

// TestExploreTellsMutantsFromTheReference starts the mutants build of the fake with one
// mutation point on per mutant, as cmd/mutants does, and explores it from a fixed seed until
// the first difference: the same sequences every run, whatever the machine's speed.
func TestExploreTellsMutantsFromTheReference(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fake with its mutation points and explores several mutants")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "fakeserver-mutants")
	build := exec.Command("go", "build", "-tags", "mutants", "-o", bin, "./cmd/fakeserver")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the mutants fake: %v\n%s", err, out)
	}
	tab := table(t)
	for _, name := range exploreMutants {
		t.Run(name, func(t *testing.T) {
			url := startMutant(t, bin, name)
			target := connect(t, url, fixtureOwner())
			e := &explore.Explorer{Target: target, Reference: explore.Fake, Table: tab,
				Options: explore.Options{Seed: 1, Steps: 150, Sequences: 40, Tolerance: 3, MaxFindings: 1}}
			res, err := e.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Findings) == 0 {
				t.Fatalf("explore found no difference from the reference in %d steps", res.Steps)
			}
			// The reports fail the finding's requirements under the profile explore.
			_, conf := writeReports(t, target, e.Options, res, tab)
			profileMustBe(t, conf, "failure")
			status := statusOf(conf)
			for _, f := range res.Findings {
				for _, id := range f.Requirements {
					if status[id] != report.Failed {
						t.Errorf("%s, a requirement of finding %s, is %q in the reports", id, f.ID, status[id])
					}
				}
			}
			for _, f := range res.Findings {
				t.Logf("%s %s [%s] after %d steps of the run, %d of its sequence", f.Difference.Reply, f.Difference.Path, strings.Join(f.Requirements, ", "), res.Steps, len(f.Steps))
			}
		})
	}
}

var listening = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)

// startMutant starts the mutants fake with one mutation point on and returns its URL; the
// test stops it.
func startMutant(t *testing.T, bin, name string) string {
	t.Helper()
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-quiet")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CHATCONFORM_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "CHATCONFORM_MUTANT="+name)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// The URL it prints, or nothing when it ends without one: no deadline that a busy machine
	// could reach (go test's own catches a hang).
	found := make(chan string, 1)
	go func() {
		defer close(found)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u := listening.FindString(sc.Text()); u != "" {
				found <- u
				break
			}
		}
		for sc.Scan() {
		}
	}()
	u, ok := <-found
	if !ok {
		t.Fatal("the mutants fake ended without printing its URL")
	}
	return u
}
