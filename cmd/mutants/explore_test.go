package main

import (
	"testing"
	"time"
)

// TestExploreColumnBudget: the column is bounded by time or by sequences (which win, being the
// same on any machine), the report says which, and a negative bound is refused before anything
// is built.
func TestExploreColumnBudget(t *testing.T) {
	for _, c := range []struct {
		budget columnBudget
		want   string
	}{
		{columnBudget{time: 20 * time.Second}, "20s"},
		{columnBudget{sequences: 4}, "4 sequences of at most 150 steps"},
		{columnBudget{time: 20 * time.Second, sequences: 4}, "4 sequences of at most 150 steps"},
	} {
		if got := c.budget.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.budget, got, c.want)
		}
	}
	for _, args := range [][]string{{"-explore", "-1s"}, {"-explore-sequences", "-1"}} {
		if got := mainStatus(args); got != 2 {
			t.Errorf("%v: exit status %d, want 2", args, got)
		}
	}
}

// TestExploreMissed: a survivor's row says why explore missed it, from what the run saw; a
// killed mutant's and a variant's say nothing of the kind.
func TestExploreMissed(t *testing.T) {
	for _, c := range []struct {
		r    ExploreResult
		want string
	}{
		{ExploreResult{Outcome: Survived}, "missed: never reached"},
		{ExploreResult{Outcome: Survived, Reached: true, Masked: []string{"get_messages messages[].client"}}, "missed: differed only where the table lets it: get_messages messages[].client"},
		{ExploreResult{Outcome: Survived, Reached: true}, "missed: reached, nothing that differed was read back"},
		{ExploreResult{Outcome: Killed, Reached: true, Masked: []string{"op note"}}, ""},
		{ExploreResult{Outcome: Passed, Reached: true}, ""},
	} {
		if got := c.r.missed(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}
