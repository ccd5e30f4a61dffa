package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatconform/chatconform/harness/report"
)

// maxSummaryFailures bounds the failures a Markdown summary lists one by one; a CI page has
// room for a table, and the HTML report has every failure in full.
const maxSummaryFailures = 50

// summaryCommand prints a run's report as Markdown, for a CI job summary (the GitHub Action
// appends it to $GITHUB_STEP_SUMMARY).
func summaryCommand() *cobra.Command {
	return &cobra.Command{Use: "summary <report-dir>", Short: "Print a run's report (conformance.json) as Markdown: totals, one row per part of the document, the findings, the failures",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			data, err := os.ReadFile(filepath.Join(args[0], "conformance.json"))
			if err != nil {
				return err
			}
			var c report.Conformance
			if err := json.Unmarshal(data, &c); err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(args[0], "conformance.json"), err)
			}
			writeMarkdownSummary(os.Stdout, &c)
			return nil
		}}
}

// writeMarkdownSummary writes the verdict, the totals, a table of the requirements' statuses
// per part of the document, the findings (what differs, by field, with what each takes down)
// and the failures of the failed requirements (requirement, spec, its finding). A requirement
// blocked by another's finding is counted, not listed: its finding says it all.
func writeMarkdownSummary(w io.Writer, c *report.Conformance) {
	n := c.Counts
	verdict := "conformant"
	switch {
	case n.Failed > 0 || n.Blocked > 0 || len(c.OtherFailures) > 0:
		verdict = "not conformant"
	case n.Passed+n.Partial == 0:
		verdict = "no requirement applied"
	}
	if x := c.Exploration; x != nil {
		// An exploration tells differences from the reference, not conformance.
		verdict = "explore, no difference from the reference"
		if x.Findings > 0 {
			verdict = fmt.Sprintf("explore, %d difference(s) from the reference", x.Findings)
		}
	}
	fmt.Fprintf(w, "## chatconform: %s\n\n", verdict)
	if x := c.Exploration; x != nil {
		fmt.Fprintf(w, "%d sequence(s), %d steps from seed %d; the requirements below are those whose fields it compared, %d more of the field table not reached\n\n",
			x.Sequences, x.Steps, x.Seed, len(x.Unreached))
	}
	target := c.Target.URL
	if target == "" {
		target = "(not set up)"
	}
	fmt.Fprintf(w, "Target %s, feature level %d · harness %s · catalog %s\n\n", mdCode(target), c.Target.FeatureLevel, mdCode(c.Suite.HarnessVersion), mdCode(c.Suite.CatalogVersion))
	fmt.Fprintf(w, "**%d requirements**: %d passed, %d partial, %d failed, %d blocked, %d skipped, %d not applicable, %d pending\n\n",
		n.Requirements, n.Passed, n.Partial, n.Failed, n.Blocked, n.Skipped, n.NotApplicable, n.Pending)
	for _, warning := range c.Warnings {
		fmt.Fprintf(w, "> **Warning**: %s\n\n", mdCell(warning))
	}

	statuses := []report.Status{report.Passed, report.Partial, report.Failed, report.Blocked, report.Skipped, report.NotApplicable}
	fmt.Fprint(w, "| Part of the document | Passed | Partial | Failed | Blocked | Skipped | Not applicable |\n|---|--:|--:|--:|--:|--:|--:|\n")
	var parts []string
	counts := map[string]map[report.Status]int{}
	for _, r := range c.Requirements {
		part, _, _ := strings.Cut(r.Section, " / ")
		if counts[part] == nil {
			counts[part] = map[report.Status]int{}
			parts = append(parts, part)
		}
		counts[part][r.Status]++
	}
	for _, part := range parts {
		fmt.Fprintf(w, "| %s |", mdCell(part))
		for _, s := range statuses {
			fmt.Fprintf(w, " %d |", counts[part][s])
		}
		fmt.Fprintln(w)
	}
	writeMarkdownFindings(w, c.Findings)

	findings := map[string]report.Finding{}
	for _, f := range c.Findings {
		findings[f.ID] = f
	}
	type row struct{ id, spec, failure string }
	var failures []row
	for _, r := range c.Requirements {
		if r.Status == report.Blocked {
			continue
		}
		for _, f := range r.Failures {
			failures = append(failures, row{r.ID, f.Spec, failureText(f, findings)})
		}
	}
	for _, f := range c.OtherFailures {
		failures = append(failures, row{"—", f.Spec, failureText(f, findings)})
	}
	if len(failures) == 0 {
		return
	}
	rows := make([]string, len(failures))
	for i, f := range failures {
		rows[i] = fmt.Sprintf("| %s | %s | %s |", mdCode(f.id), mdCell(f.spec), mdCell(f.failure))
	}
	writeMarkdownTable(w, "Failures", "| Requirement | Spec | Failure |\n|---|---|---|", rows, maxSummaryFailures, "")
	if n.Blocked > 0 {
		fmt.Fprintf(w, "\n%d blocked requirements are not listed: each failed only by a finding above, at another requirement's check.\n", n.Blocked)
	}
}

// maxSummaryFindings bounds the findings the Markdown summary lists.
const maxSummaryFindings = 20

// writeMarkdownFindings lists the findings: what differs (the field, the value seen and the one
// expected), how many specs, and the requirements each fails and blocks.
func writeMarkdownFindings(w io.Writer, findings []report.Finding) {
	if len(findings) == 0 {
		return
	}
	rows := make([]string, len(findings))
	for i, f := range findings {
		reqs := fmt.Sprintf("%d failed", len(f.Requirements)-len(f.Blocks))
		if len(f.Blocks) > 0 {
			reqs += fmt.Sprintf(", %d blocked by it (the check is %s's)", len(f.Blocks), f.Root)
		}
		rows[i] = fmt.Sprintf("| %s | %s | %d | %s |", mdCode(f.ID), mdCell(findingTitle(f)), f.Count, mdCell(reqs))
	}
	writeMarkdownTable(w, "Findings", "| Finding | What differs | Specs | Requirements |\n|---|---|--:|---|", rows, maxSummaryFindings, " findings")
}

// writeMarkdownTable writes a titled table of at most limit rows, and says how many more the
// full reports have.
func writeMarkdownTable(w io.Writer, title, header string, rows []string, limit int, noun string) {
	fmt.Fprintf(w, "\n### %s (%d)\n\n%s\n", title, len(rows), header)
	for i, row := range rows {
		if i == limit {
			fmt.Fprintf(w, "\n%d more%s in conformance.html and conformance.json.\n", len(rows)-i, noun)
			break
		}
		fmt.Fprintln(w, row)
	}
}

// findingTitle is a finding's title, or for a report written before findings had one, its
// message's first line.
func findingTitle(f report.Finding) string {
	if f.Title != "" {
		return f.Title
	}
	first, _, _ := strings.Cut(strings.TrimSpace(f.Message), "\n")
	return first
}

// failureText is what a failure's row says: its finding's ID and title, else its message's
// first line.
func failureText(f report.Failure, findings map[string]report.Finding) string {
	if finding, ok := findings[f.Finding]; ok {
		return finding.ID + ": " + findingTitle(finding)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(f.Message), "\n")
	if len(first) > 300 {
		first = first[:300] + "…"
	}
	return first
}

// mdCell makes text safe in a Markdown table cell: one line, pipes and HTML escaped.
func mdCell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}

// mdCode is text as inline code in a table cell.
func mdCode(s string) string {
	if s == "—" || s == "" {
		return "—"
	}
	return "`" + strings.ReplaceAll(mdCell(s), "`", "'") + "`"
}
