package main

import (
	"fmt"
	"maps"
	"slices"
)

// An entry may run its fake at a feature level of its own (Entry.Level). The reference run at
// the newest level says nothing of another level: a spec the fake with no point on fails at
// level L would "kill" every mutant run at L, and fail every variant. So the fake with no
// point on runs once more at each level the selected entries set, with the specs those
// entries run, and an entry whose level's reference fails is broken, not judged.

// levelReference is the reference run at one level: the fake with no point on (an entry with
// no name), and the requirements whose specs it runs (none: the whole suite).
type levelReference struct {
	Entry Entry
	Only  []string
}

// levelReferences are the reference runs the entries need besides the newest level's, one per
// level they set, lowest first. A level's run checks the union of its entries' requirements
// when every one of them runs focused (the sample's mutants), else the whole suite.
func levelReferences(entries []Entry, focus bool) []levelReference {
	byLevel := map[int][]Entry{}
	for _, e := range entries {
		if e.Level != 0 {
			byLevel[e.Level] = append(byLevel[e.Level], e)
		}
	}
	var refs []levelReference
	for _, level := range slices.Sorted(maps.Keys(byLevel)) {
		ref := levelReference{Entry: Entry{Operator: Variant, Level: level, Does: fmt.Sprintf("the reference fake at level %d, no point on", level)}}
		for _, e := range byLevel[level] {
			only := focusOf(e, focus)
			if only == nil {
				ref.Only = nil
				break
			}
			for _, id := range only {
				if !slices.Contains(ref.Only, id) {
					ref.Only = append(ref.Only, id)
				}
			}
		}
		refs = append(refs, ref)
	}
	return refs
}

// checkLevels runs the reference at each level the entries set and returns, for each level
// where it does not pass, why; logf reports each run.
func checkLevels(entries []Entry, focus bool, run runFunc, logf func(format string, args ...any)) map[int]string {
	failed := map[int]string{}
	for _, ref := range levelReferences(entries, focus) {
		r := run(ref.Entry, ref.Only)
		if r.Outcome == Passed {
			logf("reference at level %d passes (%.1f s)\n", ref.Entry.Level, r.Seconds)
			continue
		}
		why := fmt.Sprintf("the fake with no point on does not pass at level %d (%s): %v", ref.Entry.Level, r.Outcome, r.Failed)
		if r.Error != "" {
			why += "\n" + r.Error
		}
		failed[ref.Entry.Level] = why
		logf("%s\n", why)
	}
	return failed
}
