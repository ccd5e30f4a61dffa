package report

import (
	"fmt"
	"sort"
	"strings"
)

// summaryFindings is how many findings the summary lists; the HTML and JSON reports have all.
const summaryFindings = 20

// Summary returns a few lines for the end of a run's output: the findings first (each failure
// once, with what it takes down), then requirement counts by status, coverage, spec counts,
// and what would run the requirements that did not run.
func Summary(c *Conformance) string {
	n := c.Counts
	var b strings.Builder
	writeFindings(&b, c.Findings)
	if x := c.Exploration; x != nil {
		fmt.Fprintf(&b, "explore: fields of %s compared, %d of the field table not reached", plural(len(c.Requirements), "requirement"), len(x.Unreached))
		if len(x.Unreached) > 0 {
			fmt.Fprintf(&b, " (%s)", gist(strings.Join(x.Unreached, ", "), 160))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "chatconform: %d requirements: %d passed, %d partial, %d failed, %d blocked, %d skipped, %d not applicable, %d pending\n",
		n.Requirements, n.Passed, n.Partial, n.Failed, n.Blocked, n.Skipped, n.NotApplicable, n.Pending)
	if n.Blocked > 0 {
		fmt.Fprintf(&b, "  blocked: failed only by a finding of another requirement that failed (%s); fix that one first\n", strings.Join(blockers(c.Requirements), ", "))
	}
	fmt.Fprintf(&b, "coverage: %d requirements covered by specs, %d pending in the catalog\n", n.Covered, n.Pending)
	fmt.Fprintf(&b, "specs: %d: %d passed, %d failed, %d skipped, %d pending\n",
		n.Specs.Total, n.Specs.Passed, n.Specs.Failed, n.Specs.Skipped, n.Specs.Pending)
	if clock := ClockOffset(c.Target.Realm.ClockOffsetSeconds); clock != "" {
		fmt.Fprintf(&b, "target clock: %s\n", clock)
	}
	if len(c.OtherFailures) > 0 {
		fmt.Fprintf(&b, "failures outside any requirement: %d\n", len(c.OtherFailures))
	}
	for _, w := range c.Warnings {
		b.WriteString(w + "\n")
	}
	writeRemedies(&b, c)
	b.WriteString("profiles:\n")
	for _, p := range c.Profiles {
		fmt.Fprintf(&b, "  %-48s %-14s %3d passed, %d partial, %d failed, %d blocked, %d skipped, %d not applicable\n", p.name(), p.Result,
			p.Counts[Passed], p.Counts[Partial], p.Counts[Failed], p.Counts[Blocked], p.Counts[Skipped], p.Counts[NotApplicable])
	}
	b.WriteString("by part of the document:\n")
	for _, p := range byPart(c.Requirements) {
		fmt.Fprintf(&b, "  %-24s %3d passed, %d partial, %d failed, %d blocked, %d skipped, %d not applicable\n", p.name+":",
			p.counts[Passed], p.counts[Partial], p.counts[Failed], p.counts[Blocked], p.counts[Skipped], p.counts[NotApplicable])
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

// writeFindings lists the findings, most specs first, each on two lines.
func writeFindings(b *strings.Builder, findings []Finding) {
	if len(findings) == 0 {
		return
	}
	specs := 0
	for _, f := range findings {
		specs += f.Count
	}
	fmt.Fprintf(b, "chatconform: findings (distinct failures): %d, in %d failed specs, most specs first:\n", len(findings), specs)
	for i, f := range findings {
		if i == summaryFindings {
			fmt.Fprintf(b, "  … and %d more findings (conformance.html, conformance.json)\n", len(findings)-i)
			break
		}
		fmt.Fprintf(b, "  %s  %s\n", f.ID, f.Title)
		fmt.Fprintf(b, "            %s, %s failed (%d by this alone", plural(f.Count, "spec"), plural(len(f.Requirements)-len(f.Blocks), "requirement"), len(f.Sole)-len(f.Blocks))
		if len(f.Blocks) > 0 {
			fmt.Fprintf(b, "), %d blocked by it (its check is %s's", len(f.Blocks), f.Root)
		}
		b.WriteString(")")
		if f.Site != "" {
			b.WriteString("  at " + f.Site)
		}
		b.WriteString("\n")
	}
}

// gist folds a message onto one line of at most n characters.
func gist(msg string, n int) string {
	var parts []string
	for _, line := range strings.Split(msg, "\n") {
		// Labels ("expected key:") and the opening of a dumped value say nothing on one line.
		if line = strings.TrimSpace(line); line != "" && line != "…" && line != "{" && line != "[" && !strings.HasSuffix(line, ":") {
			parts = append(parts, line)
		}
	}
	s := strings.Join(parts, " · ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

// Remedy is what would run more requirements, and how many.
type Remedy struct {
	Text  string
	Count int
}

// remedies are the remedies the skip reasons of the requirements that did not run (skipped,
// partial, not applicable) name, each with how many requirements it would run, most first.
func remedies(c *Conformance) []Remedy {
	counts := map[string]int{}
	for _, r := range c.Requirements {
		if r.Status == Passed || r.Status == Failed || r.Status == Blocked {
			continue
		}
		for _, remedy := range r.RunWith {
			counts[remedy]++
		}
	}
	var out []Remedy
	for _, text := range sortedKeys(counts) {
		out = append(out, Remedy{text, counts[text]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
	return out
}

// writeRemedies says what would run more.
func writeRemedies(b *strings.Builder, c *Conformance) {
	list := remedies(c)
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(b, "%d requirements skipped or partial, %d not applicable; to run more:\n", c.Counts.Skipped+c.Counts.Partial, c.Counts.NotApplicable)
	for _, r := range list {
		fmt.Fprintf(b, "  %s to run %d of them\n", r.Text, r.Count)
	}
}

// plural is "1 spec", "2 specs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// blockers are the requirements that block others, in the catalog's order.
func blockers(reqs []Requirement) []string {
	var out []string
	for _, r := range reqs {
		for _, id := range r.BlockedBy {
			out = appendOnce(out, id)
		}
	}
	return out
}

// ClockOffset says how far the target's clock is from the runner's, in words, when the
// difference is worth a reader's attention (two seconds or more), else "". The specs check
// timestamps against the target's own clock, so an offset fails nothing; a large one is either
// a fake whose clock stands still at its fixture's time or a server whose clock is wrong.
func ClockOffset(seconds int64) string {
	d := seconds
	if d < 0 {
		d = -d
	}
	if d < 2 {
		return ""
	}
	way := "ahead of"
	if seconds < 0 {
		way = "behind"
	}
	var amount string
	switch {
	case d >= 2*86400:
		amount = fmt.Sprintf("%d days", d/86400)
	case d >= 2*3600:
		amount = fmt.Sprintf("%d hours", d/3600)
	case d >= 120:
		amount = fmt.Sprintf("%d minutes", d/60)
	default:
		amount = fmt.Sprintf("%d seconds", d)
	}
	return fmt.Sprintf("%s %s the runner's (timestamps are checked against the target's own clock, so this fails nothing; a fake's frozen clock or a wrong server clock)", amount, way)
}
