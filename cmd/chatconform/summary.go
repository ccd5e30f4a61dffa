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
	return &cobra.Command{Use: "summary <report-dir>", Short: "Print a run's report (conformance.json) as Markdown: totals, one row per part of the document, the failures",
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
// per part of the document and the failures (requirement, spec, the failure's first line).
func writeMarkdownSummary(w io.Writer, c *report.Conformance) {
	n := c.Counts
	verdict := "conformant"
	switch {
	case n.Failed > 0 || len(c.OtherFailures) > 0:
		verdict = "not conformant"
	case n.Passed+n.Partial == 0:
		verdict = "no requirement applied"
	}
	fmt.Fprintf(w, "## chatconform: %s\n\n", verdict)
	target := c.Target.URL
	if target == "" {
		target = "(not set up)"
	}
	fmt.Fprintf(w, "Target %s, feature level %d · harness %s · catalog %s\n\n", mdCode(target), c.Target.FeatureLevel, mdCode(c.Suite.HarnessVersion), mdCode(c.Suite.CatalogVersion))
	fmt.Fprintf(w, "**%d requirements**: %d passed, %d partial, %d failed, %d skipped, %d not applicable, %d pending\n\n",
		n.Requirements, n.Passed, n.Partial, n.Failed, n.Skipped, n.NotApplicable, n.Pending)
	for _, warning := range c.Warnings {
		fmt.Fprintf(w, "> **Warning**: %s\n\n", mdCell(warning))
	}

	statuses := []report.Status{report.Passed, report.Partial, report.Failed, report.Skipped, report.NotApplicable}
	fmt.Fprint(w, "| Part of the document | Passed | Partial | Failed | Skipped | Not applicable |\n|---|--:|--:|--:|--:|--:|\n")
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

	type row struct{ id, spec, message string }
	var failures []row
	for _, r := range c.Requirements {
		for _, f := range r.Failures {
			failures = append(failures, row{r.ID, f.Spec, f.Message})
		}
	}
	for _, f := range c.OtherFailures {
		failures = append(failures, row{"—", f.Spec, f.Message})
	}
	if len(failures) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Failures (%d)\n\n| Requirement | Spec | Failure |\n|---|---|---|\n", len(failures))
	for i, f := range failures {
		if i == maxSummaryFailures {
			fmt.Fprintf(w, "\n%d more in conformance.html and conformance.json.\n", len(failures)-i)
			break
		}
		first, _, _ := strings.Cut(strings.TrimSpace(f.message), "\n")
		if len(first) > 300 {
			first = first[:300] + "…"
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", mdCode(f.id), mdCell(f.spec), mdCell(first))
	}
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
