package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Totals counts the outcomes of a run.
type Totals struct {
	Mutants        int `json:"mutants"`
	Killed         int `json:"killed"`
	Survived       int `json:"survived"`
	Variants       int `json:"variants"`
	VariantsPassed int `json:"variants_passed"`
	Broken         int `json:"broken"`
}

// Run is the machine-readable report of a run (reports/mutants.json).
type Run struct {
	Started  time.Time `json:"started"`
	Seconds  float64   `json:"seconds"`
	Jobs     int       `json:"jobs"`
	Sample   bool      `json:"sample"`
	Totals   Totals    `json:"totals"`
	Results  []Result  `json:"results"`
	Untested []string  `json:"requirements_without_mutant"`
}

func count(results []Result) Totals {
	var t Totals
	for _, r := range results {
		switch {
		case r.Outcome == Broken:
			t.Broken++
		case r.Mutant():
			t.Mutants++
			if r.Outcome == Killed {
				t.Killed++
			} else {
				t.Survived++
			}
		default:
			t.Variants++
			if r.Outcome == Passed {
				t.VariantsPassed++
			}
		}
	}
	return t
}

// OK reports whether the run meets the target: every mutant killed, every variant passing,
// no run broken.
func (t Totals) OK() bool {
	return t.Survived == 0 && t.Broken == 0 && t.VariantsPassed == t.Variants
}

func (t Totals) String() string {
	return fmt.Sprintf("%d mutants: %d killed, %d survived; %d variants: %d passed; %d runs broken",
		t.Mutants, t.Killed, t.Survived, t.Variants, t.VariantsPassed, t.Broken)
}

func writeJSON(w io.Writer, run Run) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(run)
}

// writeMarkdown writes the requirement × operator table, the totals, the survivors with the
// specs that should have caught them, the variants and the requirements no mutant breaks yet.
func writeMarkdown(w io.Writer, run Run) {
	fmt.Fprintf(w, "# Mutation run\n\n%s, %d at once, %.0f s%s.\n\n**%s.**\n\n",
		run.Started.UTC().Format(time.RFC3339), run.Jobs, run.Seconds, map[bool]string{true: " (the fixed sample)", false: ""}[run.Sample], run.Totals)

	cells := map[string]map[Operator][]string{}
	var rows []string
	for _, r := range run.Results {
		if !r.Mutant() {
			continue
		}
		mark := map[Outcome]string{Killed: "killed", Survived: "**SURVIVED**", Broken: "broken"}[r.Outcome]
		for _, id := range r.Requirements {
			if cells[id] == nil {
				cells[id] = map[Operator][]string{}
				rows = append(rows, id)
			}
			cells[id][r.Operator] = append(cells[id][r.Operator], fmt.Sprintf("%s: %s", r.Name, mark))
		}
	}
	slices.Sort(rows)
	fmt.Fprintf(w, "## Requirement × operator\n\nAn empty cell: no mutant of that kind for the requirement yet, or the operator does not apply to its kind of statement (docs/mutation.md says which apply to which).\n\n| requirement |")
	for _, op := range Operators {
		fmt.Fprintf(w, " %s |", op)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(Operators)))
	for _, id := range rows {
		fmt.Fprintf(w, "| %s |", id)
		for _, op := range Operators {
			fmt.Fprintf(w, " %s |", strings.Join(cells[id][op], "<br>"))
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "\n## Survivors\n\n")
	none := true
	for _, r := range run.Results {
		if r.Outcome != Survived {
			continue
		}
		none = false
		reached := "the fake reached the mutation point"
		if !r.Reached {
			reached = "no spec reached the mutation point"
		}
		fmt.Fprintf(w, "- `%s` (%s, %s): %s; %s. Should have been caught by:\n", r.Name, r.Operator, strings.Join(r.Requirements, ", "), r.Does, reached)
		for _, s := range r.Watchers {
			fmt.Fprintf(w, "  - %s\n", s)
		}
		if len(r.Failed) > 0 {
			fmt.Fprintf(w, "  - (failed instead: %s)\n", strings.Join(r.Failed, ", "))
		}
	}
	if none {
		fmt.Fprintln(w, "None.")
	}

	fmt.Fprintf(w, "\n## Benign variants\n\n| variant | outcome | what it does | failed |\n|---|---|---|---|\n")
	for _, r := range run.Results {
		if !r.Mutant() {
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", r.Name, r.Outcome, r.Does, strings.Join(r.Failed, ", "))
		}
	}

	fmt.Fprintf(w, "\n## All mutants\n\n| mutant | operator | requirements | outcome | reached | failed requirements |\n|---|---|---|---|---|---|\n")
	for _, r := range run.Results {
		if r.Mutant() {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %t | %s |\n", r.Name, r.Operator, strings.Join(r.Requirements, ", "), r.Outcome, r.Reached, strings.Join(r.Failed, ", "))
		}
	}
	var broken []Result
	for _, r := range run.Results {
		if r.Outcome == Broken {
			broken = append(broken, r)
		}
	}
	if len(broken) > 0 {
		fmt.Fprintf(w, "\n## Broken runs\n\n")
		for _, r := range broken {
			fmt.Fprintf(w, "### %s\n\n```\n%s\n```\n\n", r.Name, r.Error)
		}
	}
	fmt.Fprintf(w, "\n## Requirements no mutant breaks yet (%d)\n\n%s\n", len(run.Untested), strings.Join(run.Untested, ", "))
}
