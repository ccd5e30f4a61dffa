package main

import (
	"strings"
	"sync"
	"testing"
)

// The fake with no point on runs once per level the entries set, with the specs those entries
// need; the entries of a level where it fails a spec are broken, not killed, and the others
// are judged as usual.
func TestEntriesAtALevelWhereTheReferenceFailsAreBroken(t *testing.T) {
	entries := []Entry{
		{Name: "one-level-late", Operator: Boundary, Requirements: []string{"VER-23"}, Level: 300},
		{Name: "early-form", Operator: WrongValue, Requirements: []string{"VER-27", "VER-23"}, Level: 300},
		{Name: "other-level", Operator: WrongValue, Requirements: []string{"VER-28"}, Level: 400},
		{Name: "newest-level", Operator: WrongValue, Requirements: []string{"MSG-19"}},
	}
	for _, focus := range []bool{true, false} {
		var mu sync.Mutex
		refs := map[int][]string{}
		run := func(e Entry, only []string) Result {
			if e.Name != "" {
				return Result{Entry: e, Outcome: Killed, Failed: e.Requirements}
			}
			mu.Lock()
			refs[e.Level] = only
			mu.Unlock()
			c := conformance()
			if e.Level == 300 {
				c = conformance("MSG-13") // at 300 the fake itself fails a spec
			}
			r := Result{Entry: e}
			r.Outcome, r.Failed, _ = judge(e, c)
			return r
		}
		failed := checkLevels(entries, focus, run, func(string, ...any) {})
		results := runAll(entries, 2, focus, failed, run, func(Result) {})

		wantOnly := map[int]string{300: "VER-23,VER-27", 400: "VER-28"}
		if !focus {
			wantOnly = map[int]string{300: "", 400: ""}
		}
		if len(refs) != len(wantOnly) {
			t.Errorf("focus %t: references at levels %v, want one at each of 300 and 400", focus, refs)
		}
		for level, want := range wantOnly {
			if got, ran := refs[level]; !ran || strings.Join(got, ",") != want {
				t.Errorf("focus %t: the reference at level %d checked %v (ran %t), want %q", focus, level, got, ran, want)
			}
		}
		for _, r := range results {
			want := Killed
			if r.Level == 300 {
				want = Broken
			}
			if r.Outcome != want {
				t.Errorf("focus %t: %s at level %d: %s, want %s", focus, r.Name, r.Level, r.Outcome, want)
			}
			if want == Broken && !(strings.Contains(r.Error, "level 300") && strings.Contains(r.Error, "MSG-13")) {
				t.Errorf("focus %t: %s is broken without saying the reference fails MSG-13 at level 300: %q", focus, r.Name, r.Error)
			}
		}
	}
}
