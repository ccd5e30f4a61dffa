package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chatconform/chatconform/harness/report"
)

// The fixture's owner, whom the suite provisions through.
const (
	ownerEmail  = "owner@chat.example.test"
	ownerAPIKey = "OwnerKey000000000000000000000001"
)

// Outcome is what the suite did against one entry.
type Outcome string

// Outcomes. A mutant is killed when at least one requirement it declares fails, survives when
// none does; a variant passes when nothing fails. Broken means the run itself went wrong (the
// fake did not start, the suite wrote no report) and says nothing about the suite's strength.
const (
	Killed   Outcome = "killed"
	Survived Outcome = "survived"
	Passed   Outcome = "passed"
	Failing  Outcome = "failed"
	Broken   Outcome = "broken"
)

// Result is one entry's run.
type Result struct {
	Entry
	Outcome Outcome `json:"outcome"`
	// Failed are the requirements that failed, the declared ones first.
	Failed []string `json:"failed,omitempty"`
	// FailedSpecs are the specs that failed, at most a few.
	FailedSpecs []string `json:"failed_specs,omitempty"`
	// Reached says whether the fake reached the mutation point during the run: a survivor
	// not reached sits on a path no spec takes.
	Reached bool `json:"reached"`
	// Watchers are, for a survivor, the specs that name its requirements: those that should
	// have caught it.
	Watchers []string `json:"watchers,omitempty"`
	Seconds  float64  `json:"seconds"`
	Error    string   `json:"error,omitempty"`
}

// binaries are the two programs a run needs, built once.
type binaries struct{ fake, suite string }

// build compiles the fake with its mutation points (-tags mutants) and the suite's test
// binary (as `go tool ginkgo build ./specs` does), into dir.
func build(ctx context.Context, root, dir string) (binaries, error) {
	b := binaries{fake: filepath.Join(dir, "fakeserver-mutants"), suite: filepath.Join(dir, "specs.test")}
	steps := [][]string{
		{"go", "build", "-tags", "mutants", "-o", b.fake, "./cmd/fakeserver"},
		{"go", "test", "-c", "-o", b.suite, "./specs"},
	}
	for _, s := range steps {
		cmd := exec.CommandContext(ctx, s[0], s[1:]...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return b, fmt.Errorf("%s: %w\n%s", strings.Join(s, " "), err, out)
		}
	}
	return b, nil
}

var urlPattern = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)

// startFake starts the mutants build of the fake with the named point on ("" for none) and
// returns its URL and a function that stops it.
func startFake(ctx context.Context, bin, name, hits string, level int) (string, func(), error) {
	args := []string{"-addr", "127.0.0.1:0", "-quiet"}
	if level > 0 {
		args = append(args, "-feature-level", strconv.Itoa(level))
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(withoutSettings(os.Environ()), "CHATCONFORM_MUTANT="+name, "CHATCONFORM_MUTANT_HITS="+hits)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sent := false
		for sc.Scan() {
			if u := urlPattern.FindString(sc.Text()); u != "" && !sent {
				found <- u
				sent = true
			}
		}
		if !sent {
			close(found)
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case u, ok := <-found:
		if !ok {
			stop()
			return "", nil, errors.New("the fake exited without printing its URL")
		}
		return u, stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, errors.New("the fake did not print its URL within 30s")
	}
}

// withoutSettings drops every chatconform setting of the caller's environment: a run checks
// the fake it started, whatever target the developer's shell points at.
func withoutSettings(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "CHATCONFORM_")
	})
}

// runSuite runs the suite's binary against url, writing its reports into dir, limited to
// the specs of the given requirements when there are any, and returns the report.
func runSuite(ctx context.Context, bin, url, dir string, only []string) (*report.Conformance, string, error) {
	args := []string{"-test.timeout=10m", "-ginkgo.timeout=8m"}
	if len(only) > 0 {
		labels := make([]string, len(only))
		for i, id := range only {
			labels[i] = "req:" + id
		}
		args = append(args, "-ginkgo.label-filter="+strings.Join(labels, " || "))
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = filepath.Dir(bin)
	cmd.Env = append(withoutSettings(os.Environ()),
		"CHATCONFORM_URL="+url, "CHATCONFORM_OWNER_EMAIL="+ownerEmail,
		"CHATCONFORM_OWNER_API_KEY="+ownerAPIKey, "CHATCONFORM_REPORT_DIR="+dir)
	out, _ := cmd.CombinedOutput() // a failing suite exits 1; the report tells what failed
	data, err := os.ReadFile(filepath.Join(dir, "conformance.json"))
	if err != nil {
		return nil, string(out), fmt.Errorf("the suite wrote no report: %w", err)
	}
	var c report.Conformance
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, string(out), fmt.Errorf("the suite's report: %w", err)
	}
	return &c, string(out), nil
}

// judge turns the suite's report on one entry into its outcome.
func judge(e Entry, c *report.Conformance) (Outcome, []string, []string) {
	var declared, others, specs []string
	for _, r := range c.Requirements {
		if len(r.Failures) == 0 && r.Status != report.Failed {
			continue
		}
		if slices.Contains(e.Requirements, r.ID) {
			declared = append(declared, r.ID)
		} else {
			others = append(others, r.ID)
		}
		for _, f := range r.Failures {
			if !slices.Contains(specs, f.Spec) && len(specs) < 5 {
				specs = append(specs, f.Spec)
			}
		}
	}
	failed := append(declared, others...)
	switch {
	case !e.Mutant() && len(failed) == 0:
		return Passed, nil, nil
	case !e.Mutant():
		return Failing, failed, specs
	case len(declared) > 0:
		return Killed, failed, specs
	default:
		return Survived, failed, specs
	}
}

// watchers are the specs of the report that name one of the entry's requirements.
func watchers(e Entry, c *report.Conformance) []string {
	var specs []string
	for _, r := range c.Requirements {
		if slices.Contains(e.Requirements, r.ID) {
			for _, s := range r.Specs {
				if !slices.Contains(specs, s) {
					specs = append(specs, s)
				}
			}
		}
	}
	return specs
}

// runFunc runs the suite against one entry's fake, limited to the specs of the requirements
// only when there are any.
type runFunc func(e Entry, only []string) Result

// runOne starts the fake with the entry's point on (none for the reference, whose Name is
// empty) at the entry's level and runs the suite against it.
func runOne(ctx context.Context, b binaries, work string, e Entry, only []string) (res Result) {
	start := time.Now()
	res = Result{Entry: e}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	dir := filepath.Join(work, cmp.Or(e.Name, fmt.Sprintf("reference-%d", e.Level)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		res.Outcome, res.Error = Broken, err.Error()
		return res
	}
	hits := filepath.Join(dir, "reached")
	url, stop, err := startFake(ctx, b.fake, e.Name, hits, e.Level)
	if err != nil {
		res.Outcome, res.Error = Broken, err.Error()
		return res
	}
	c, out, err := runSuite(ctx, b.suite, url, dir, only)
	stop()
	_, statErr := os.Stat(hits)
	res.Reached = statErr == nil
	if err != nil {
		res.Outcome, res.Error = Broken, err.Error()+"\n"+tail(out, 40)
		return res
	}
	if ranNothing(c) {
		res.Outcome, res.Error = Broken, "the suite checked no requirement (its setup failed)\n"+tail(out, 40)
		return res
	}
	res.Outcome, res.Failed, res.FailedSpecs = judge(e, c)
	if res.Outcome == Survived {
		res.Watchers = watchers(e, c)
	}
	return res
}

// ranNothing tells a run whose setup failed (the harness could not connect, say): it checks no
// requirement, so judged it would count as a survivor that no spec looked at, or as a variant
// that passed.
func ranNothing(c *report.Conformance) bool {
	return !slices.ContainsFunc(c.Requirements, func(r report.Requirement) bool {
		return len(r.Failures) > 0 || r.Status == report.Passed || r.Status == report.Partial || r.Status == report.Failed
	})
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// focusOf is what a run of e checks: with focus (the sample) a mutant runs only the specs of
// its requirements; a variant, and every entry without focus, the whole suite.
func focusOf(e Entry, focus bool) []string {
	if focus && e.Mutant() {
		return e.Requirements
	}
	return nil
}

// runAll runs the entries, jobs at a time, calling progress after each, and returns the
// results in the entries' order. An entry whose level's reference has failed (failedLevels,
// see levels.go) is not run: it is broken, for a kill there would mean nothing.
func runAll(entries []Entry, jobs int, focus bool, failedLevels map[int]string, run runFunc, progress func(Result)) []Result {
	results := make([]Result, len(entries))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range max(1, jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				e := entries[i]
				if why, failed := failedLevels[e.Level]; failed && e.Level != 0 {
					results[i] = Result{Entry: e, Outcome: Broken, Error: why}
				} else {
					results[i] = run(e, focusOf(e, focus))
				}
				mu.Lock()
				progress(results[i])
				mu.Unlock()
			}
		}()
	}
	for i := range entries {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}
