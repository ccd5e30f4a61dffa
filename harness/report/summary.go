package report

import (
	"fmt"
	"strings"
)

// Summary returns a few lines for the end of a run's output: requirement
// counts by status, coverage, and spec counts.
func Summary(c *Conformance) string {
	n := c.Counts
	var b strings.Builder
	fmt.Fprintf(&b, "chatconform: %d requirements: %d passed, %d partial, %d failed, %d skipped, %d not applicable, %d pending\n",
		n.Requirements, n.Passed, n.Partial, n.Failed, n.Skipped, n.NotApplicable, n.Pending)
	fmt.Fprintf(&b, "coverage: %d requirements covered by specs, %d pending in the catalog\n", n.Covered, n.Pending)
	fmt.Fprintf(&b, "specs: %d: %d passed, %d failed, %d skipped, %d pending\n",
		n.Specs.Total, n.Specs.Passed, n.Specs.Failed, n.Specs.Skipped, n.Specs.Pending)
	fmt.Fprintf(&b, "target clock: %+ds from the runner's (timestamps are checked against the target's clock)\n", c.Target.Realm.ClockOffsetSeconds)
	if len(c.OtherFailures) > 0 {
		fmt.Fprintf(&b, "failures outside any requirement: %d\n", len(c.OtherFailures))
	}
	for _, w := range c.Warnings {
		b.WriteString(w + "\n")
	}
	b.WriteString("profiles:\n")
	for _, p := range c.Profiles {
		fmt.Fprintf(&b, "  %-48s %-14s %3d passed, %d partial, %d failed, %d skipped, %d not applicable\n", p.name(), p.Result,
			p.Counts[Passed], p.Counts[Partial], p.Counts[Failed], p.Counts[Skipped], p.Counts[NotApplicable])
	}
	b.WriteString("by part of the document:\n")
	for _, p := range byPart(c.Requirements) {
		fmt.Fprintf(&b, "  %-24s %3d passed, %d partial, %d failed, %d skipped, %d not applicable\n", p.name+":",
			p.counts[Passed], p.counts[Partial], p.counts[Failed], p.counts[Skipped], p.counts[NotApplicable])
	}
	return b.String()
}

type part struct {
	name   string
	counts map[Status]int
}

// byPart counts requirement statuses per part of the document (the section before " / "), in
// the catalog's order of first appearance.
func byPart(reqs []Requirement) []part {
	var parts []part
	index := map[string]int{}
	for _, r := range reqs {
		name, _, _ := strings.Cut(r.Section, " / ")
		i, ok := index[name]
		if !ok {
			i = len(parts)
			index[name] = i
			parts = append(parts, part{name: name, counts: map[Status]int{}})
		}
		parts[i].counts[r.Status]++
	}
	return parts
}
