package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/harness/report"
)

func conformance(failed ...string) *report.Conformance {
	c := &report.Conformance{}
	for _, id := range []string{"MSG-19", "MSG-13", "OP03-04"} {
		r := report.Requirement{ID: id, Status: report.Passed, Specs: []string{"spec of " + id}}
		for _, f := range failed {
			if f == id {
				r.Status, r.Failures = report.Failed, []report.Failure{{Spec: "spec of " + id}}
			}
		}
		c.Requirements = append(c.Requirements, r)
	}
	return c
}

// A mutant is killed only by a failure of a requirement it declares; a variant passes only
// when nothing failed.
func TestJudge(t *testing.T) {
	mutant := Entry{Name: "recipient-id-per-message", Operator: WrongValue, Requirements: []string{"MSG-19"}}
	variant := Entry{Name: "variant-x", Operator: Variant}
	cases := []struct {
		name   string
		e      Entry
		failed []string
		want   Outcome
		list   []string
	}{
		{"declared requirement failed", mutant, []string{"MSG-19"}, Killed, []string{"MSG-19"}},
		{"declared and another failed, declared first", mutant, []string{"MSG-13", "MSG-19"}, Killed, []string{"MSG-19", "MSG-13"}},
		{"only another failed", mutant, []string{"MSG-13"}, Survived, []string{"MSG-13"}},
		{"nothing failed", mutant, nil, Survived, nil},
		{"variant, nothing failed", variant, nil, Passed, nil},
		{"variant, something failed", variant, []string{"OP03-04"}, Failing, []string{"OP03-04"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, failed, _ := judge(c.e, conformance(c.failed...))
			if got != c.want || strings.Join(failed, ",") != strings.Join(c.list, ",") {
				t.Errorf("judge = %s %v, want %s %v", got, failed, c.want, c.list)
			}
		})
	}
}

// The report's table has a row per broken requirement with the outcome in the operator's
// column, the survivors with the specs that should have caught them, and the totals.
func TestMarkdownReport(t *testing.T) {
	results := []Result{
		{Entry: Entry{Name: "recipient-id-per-message", Operator: WrongValue, Requirements: []string{"MSG-19"}, Does: "d1"}, Outcome: Killed, Failed: []string{"MSG-19"}, Reached: true},
		{Entry: Entry{Name: "mute-topic-refused-at-limit", Operator: Boundary, Requirements: []string{"OP03-04"}, Does: "d2"}, Outcome: Survived, Reached: true, Watchers: []string{"spec of OP03-04"}},
		{Entry: Entry{Name: "variant-x", Operator: Variant, Does: "d3"}, Outcome: Passed},
	}
	run := Run{Totals: count(results), Results: results}
	if run.Totals != (Totals{Mutants: 2, Killed: 1, Survived: 1, Variants: 1, VariantsPassed: 1}) || run.Totals.OK() {
		t.Fatalf("totals %+v, OK %t", run.Totals, run.Totals.OK())
	}
	var b bytes.Buffer
	writeMarkdown(&b, run)
	out := b.String()
	for _, want := range []string{
		"| MSG-19 | recipient-id-per-message: killed |",
		"| OP03-04 |  | mute-topic-refused-at-limit: **SURVIVED** |",
		"- `mute-topic-refused-at-limit` (boundary, OP03-04): d2; the fake reached the mutation point. Should have been caught by:\n  - spec of OP03-04",
		"| variant-x | passed | d3 |",
		"2 mutants: 1 killed, 1 survived",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// A run whose setup failed checks no requirement: it is neither a survivor nor a passing
// variant.
func TestRanNothing(t *testing.T) {
	aborted := &report.Conformance{Requirements: []report.Requirement{{ID: "VER-02", Status: report.Skipped}, {ID: "MSG-19", Status: report.NotApplicable}}}
	if !ranNothing(aborted) {
		t.Error("a run with every requirement skipped counts as having run")
	}
	for _, failed := range [][]string{nil, {"MSG-19"}} {
		if ranNothing(conformance(failed...)) {
			t.Errorf("a run with %v failed counts as having run nothing", failed)
		}
	}
}
