package explore

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/report"
	"github.com/chatconform/chatconform/specs/catalog"
)

// WriteReports writes an exploration in the suite's report formats (conformance.json,
// conformance.html, junit.xml) into dir/FindingsDir, beside the replay files, under the
// profile report.ExploreProfile: each finding a failed check of its requirements, each
// requirement whose fields the run compared without a difference a passed one. It returns the
// report, whose summary the console prints.
func WriteReports(dir string, t *harness.Target, opts Options, res Result, replays map[string]string, table *Table) (*report.Conformance, error) {
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	r := SuiteReport(res, replays, time.Now())
	c := report.BuildExploration(cat, r, t, exploration(opts, res, table))
	out := filepath.Join(dir, FindingsDir)
	if err := report.Write(c, out); err != nil {
		return nil, err
	}
	if err := report.WriteJUnit(r, filepath.Join(out, report.JUnitFile)); err != nil {
		return nil, fmt.Errorf("report: writing %s: %w", report.JUnitFile, err)
	}
	return c, nil
}

// exploreSpecs is the container of the exploration's checks: the classname of their JUnit
// cases.
const exploreSpecs = "explore"

// SuiteReport is an exploration as the report package reads a suite run: a Ginkgo report that
// ended at end, with one failed spec per finding (its requirements as labels, the difference
// as the failed assertion's mismatch, the finding's paragraph with its steps and replay as the
// message, the last step's exchanges as output) and one passed spec per requirement checked
// without a difference.
func SuiteReport(res Result, replays map[string]string, end time.Time) types.Report {
	start := end.Add(-time.Duration(res.Seconds * float64(time.Second)))
	r := types.Report{
		SuiteDescription: fmt.Sprintf("chatconform explore: %d sequences, %d steps from seed %d", res.Sequences, res.Steps, res.Seed),
		SuiteSucceeded:   len(res.Findings) == 0,
		StartTime:        start, EndTime: end, RunTime: end.Sub(start),
	}
	r.SuiteConfig.RandomSeed = int64(res.Seed) // junit.xml's RandomSeed: the same seed, the same sequences
	failed := map[string]bool{}
	for _, f := range res.Findings {
		r.SpecReports = append(r.SpecReports, findingSpec(f, replays[f.ID]))
		for _, id := range f.Requirements {
			failed[id] = true
		}
	}
	for _, id := range res.Checked {
		if failed[id] {
			continue
		}
		r.SpecReports = append(r.SpecReports, types.SpecReport{
			ContainerHierarchyTexts: []string{exploreSpecs}, LeafNodeType: types.NodeTypeIt,
			LeafNodeText:   "the fields of " + id + " as the reference's",
			LeafNodeLabels: []string{harness.ReqLabelPrefix + id}, State: types.SpecStatePassed,
		})
	}
	return r
}

// findingSpec is a finding as a failed spec.
func findingSpec(f Finding, replay string) types.SpecReport {
	d := f.Difference
	labels := make([]string, len(f.Requirements))
	for i, id := range f.Requirements {
		labels[i] = harness.ReqLabelPrefix + id
	}
	// The field is named with its answer: the same path in two answers is two findings, as
	// the explorer has them.
	mismatch, _ := json.Marshal(harness.Mismatch{Field: d.Reply + " " + d.Path, Check: "equal", Expected: d.Reference, Actual: d.Target})
	message := findingText(f, replay)
	output := exchangesText(f)
	s := types.SpecReport{
		ContainerHierarchyTexts: []string{exploreSpecs}, LeafNodeType: types.NodeTypeIt,
		LeafNodeText:   fmt.Sprintf("%s: %s %s as the reference's", f.ID, d.Reply, d.Path),
		LeafNodeLabels: labels, State: types.SpecStateFailed,
		Failure: types.Failure{Message: message,
			TimelineLocation: types.TimelineLocation{Offset: len(output)}},
		CapturedGinkgoWriterOutput: output,
		ReportEntries:              types.ReportEntries{{Name: harness.MismatchEntry, Value: types.WrapEntryValue(string(mismatch))}},
	}
	if replay != "" {
		// Where to start from: the replay file, which runs the sequence against any URL.
		s.Failure.Location = types.CodeLocation{FileName: replay, LineNumber: 1}
	}
	return s
}

// exchangesText is what both sides were sent in the finding's last step and what came back,
// each reply cut to maxReply bytes: explore.json has them whole.
func exchangesText(f Finding) string {
	var b strings.Builder
	b.WriteString("(replies cut to their first " + fmt.Sprint(maxReply) + " bytes; explore.json has them whole)\n")
	for _, side := range []struct {
		name string
		list []Exchange
	}{{"target", f.Target}, {"reference", f.Reference}} {
		fmt.Fprintf(&b, "the %s's exchanges of the last step:\n", side.name)
		for _, ex := range side.list {
			fmt.Fprintf(&b, "  as %s: %s %s", ex.Actor, ex.Method, ex.URL)
			if ex.Body != "" {
				fmt.Fprintf(&b, " %s", ex.Body)
			}
			if len(ex.Form) > 0 {
				fmt.Fprintf(&b, " -F %s", strings.Join(ex.Form, " -F "))
			}
			fmt.Fprintf(&b, "\n    %d %s\n", ex.Status, clip(ex.Reply, maxReply))
		}
	}
	return b.String()
}

// maxReply bounds a reply in a finding's output, so that its last step's exchanges (every
// actor's reads) stay within the report's bounds.
const maxReply = 400

// exploration is what the run did, for the report.
func exploration(opts Options, res Result, table *Table) report.Exploration {
	var unreached []string
	for _, row := range table.Rows() {
		for _, id := range row.Requirements {
			if !slices.Contains(res.Checked, id) && !slices.Contains(unreached, id) {
				unreached = append(unreached, id)
			}
		}
	}
	sort.Strings(unreached)
	return report.Exploration{Seed: res.Seed, Sequences: res.Sequences, Steps: res.Steps, StepsPerSequence: opts.Steps,
		Seconds: res.Seconds, Findings: len(res.Findings), Unreached: unreached, Gaps: res.Gaps}
}
