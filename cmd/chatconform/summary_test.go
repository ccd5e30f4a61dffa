package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/harness/report"
)

// TestMarkdownSummary: the job summary gives the verdict, one row per part of the document with
// its statuses, the findings by what differs, and each failure of a failed requirement in one
// table row (its finding's title) whose text cannot break the table; beyond maxSummaryFailures
// it points at the full reports; blocked requirements are counted, not listed.
func TestMarkdownSummary(t *testing.T) {
	failure := func(spec, msg string) report.Failure { return report.Failure{Spec: spec, Message: msg} }
	many := make([]report.Failure, maxSummaryFailures+3)
	for i := range many {
		many[i] = failure(fmt.Sprintf("spec %d", i), "Expected <int>: 400")
	}
	envelope := report.Finding{ID: "Fad3f89dd", Title: "msg: missing (CONV-05)", Root: "CONV-05", Count: 3,
		Message: "expected: map contains key", Requirements: []string{"CONV-05", "OP06-01", "OP12-03"}, Blocks: []string{"OP06-01", "OP12-03"}}
	withFinding := func(spec string) report.Failure {
		f := failure(spec, "expected: map contains key")
		f.Finding = envelope.ID
		return f
	}
	for _, tc := range []struct {
		name     string
		reqs     []report.Requirement
		others   []report.Failure
		findings []report.Finding
		want     []string
		notWant  []string
	}{
		{"conformant", []report.Requirement{
			{ID: "CONV-01", Section: "Conventions", Status: report.Passed},
			{ID: "OP06-09", Section: "Endpoints / 6. Get topics", Status: report.Passed},
			{ID: "OP07-01", Section: "Endpoints / 7. x", Status: report.NotApplicable},
		}, nil, nil, []string{"## chatconform: conformant\n", "| Conventions | 1 | 0 | 0 | 0 | 0 | 0 |\n", "| Endpoints | 1 | 0 | 0 | 0 | 0 | 1 |\n"}, []string{"### Failures"}},
		{"a failure whose text would break the table", []report.Requirement{
			{ID: "OP06-09", Section: "Endpoints / 6. Get topics", Status: report.Failed,
				Failures: []report.Failure{failure("Operation 6: lists | topics", "Expected\n<string>: a|b <script>\nto equal")}},
		}, nil, nil, []string{"## chatconform: not conformant\n", "### Failures (1)\n",
			"| `OP06-09` | Operation 6: lists \\| topics | Expected |\n", "| Endpoints | 0 | 0 | 1 | 0 | 0 | 0 |\n"}, []string{"<script>"}},
		{"a failure outside any requirement", []report.Requirement{{ID: "CONV-01", Section: "Conventions", Status: report.Passed}},
			[]report.Failure{failure("[SynchronizedAfterSuite]", "archiving failed")}, nil,
			[]string{"## chatconform: not conformant\n", "| — | [SynchronizedAfterSuite] | archiving failed |\n"}, nil},
		{"nothing applied", []report.Requirement{{ID: "CONV-01", Section: "Conventions", Status: report.Skipped}}, nil, nil,
			[]string{"## chatconform: no requirement applied\n"}, nil},
		{"many failures", []report.Requirement{{ID: "OP06-09", Section: "Endpoints / 6", Status: report.Failed, Failures: many}}, nil, nil,
			[]string{fmt.Sprintf("### Failures (%d)", len(many)), "| spec 49 |", "\n3 more in conformance.html and conformance.json.\n"}, []string{"| spec 50 |"}},
		{"one root cause", []report.Requirement{
			{ID: "CONV-05", Section: "Conventions", Status: report.Failed, Failures: []report.Failure{withFinding("Conventions: success")}},
			{ID: "OP06-01", Section: "Endpoints / 6", Status: report.Blocked, BlockedBy: []string{"CONV-05"}, Failures: []report.Failure{withFinding("Operation 6: a")}},
			{ID: "OP12-03", Section: "Endpoints / 12", Status: report.Blocked, BlockedBy: []string{"CONV-05"}, Failures: []report.Failure{withFinding("Operation 12: b")}},
		}, nil, []report.Finding{envelope}, []string{"## chatconform: not conformant\n", "1 failed, 2 blocked,",
			"| `Fad3f89dd` | msg: missing (CONV-05) | 3 | 1 failed, 2 blocked by it (the check is CONV-05's) |\n",
			"| `CONV-05` | Conventions: success | Fad3f89dd: msg: missing (CONV-05) |\n", "| Endpoints | 0 | 0 | 0 | 2 | 0 | 0 |\n",
			"2 blocked requirements are not listed"}, []string{"Operation 6: a", "map contains key"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &report.Conformance{Requirements: tc.reqs, OtherFailures: tc.others, Findings: tc.findings}
			for _, r := range tc.reqs {
				c.Counts.Requirements++
				switch r.Status {
				case report.Passed:
					c.Counts.Passed++
				case report.Failed:
					c.Counts.Failed++
				case report.Blocked:
					c.Counts.Blocked++
				}
			}
			var b strings.Builder
			writeMarkdownSummary(&b, c)
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("summary lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(b.String(), w) {
					t.Errorf("summary has %q:\n%s", w, b.String())
				}
			}
		})
	}
}

// TestMarkdownSummaryOfAnExploration: an exploration's report is summed up as differences from
// the reference, with the run's seed, sequences and steps.
func TestMarkdownSummaryOfAnExploration(t *testing.T) {
	for _, tc := range []struct {
		name     string
		findings int
		want     string
	}{
		{"no difference", 0, "## chatconform: explore, no difference from the reference\n"},
		{"a difference", 1, "## chatconform: explore, 1 difference(s) from the reference\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &report.Conformance{Exploration: &report.Exploration{Seed: 7, Sequences: 3, Steps: 90, Findings: tc.findings, Unreached: []string{"AUTH-09"}}}
			var b strings.Builder
			writeMarkdownSummary(&b, c)
			for _, w := range []string{tc.want, "3 sequence(s), 90 steps from seed 7", "1 more of the field table not reached"} {
				if !strings.Contains(b.String(), w) {
					t.Errorf("summary lacks %q:\n%s", w, b.String())
				}
			}
		})
	}
}
