package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/chatconform/chatconform/specs/catalog"
)

// hookPattern finds a mutation point in the fake's sources.
var hookPattern = regexp.MustCompile(`mutation\.On\("([a-z0-9-]+)"\)`)

// hooks returns the names of the fake's mutation points and how often each occurs.
func hooks(t *testing.T) map[string]int {
	t.Helper()
	found := map[string]int{}
	err := filepath.WalkDir("../../fakeserver", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		for _, m := range hookPattern.FindAllStringSubmatch(string(data), -1) {
			found[m[1]]++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// Every entry has its one mutation point in the fake, and every point an entry: a name
// without a point would be a mutant that changes nothing and survives for no reason.
func TestEveryEntryHasItsPoint(t *testing.T) {
	points := hooks(t)
	names := map[string]bool{}
	for _, e := range Entries {
		if names[e.Name] {
			t.Errorf("%s: two entries", e.Name)
		}
		names[e.Name] = true
		if points[e.Name] != 1 {
			t.Errorf("%s: %d mutation points in the fake, want 1", e.Name, points[e.Name])
		}
	}
	for p := range points {
		if !names[p] {
			t.Errorf("mutation point %q has no entry", p)
		}
	}
}

// Entries are well formed: an operator of the catalogue, requirements of the catalog for a
// mutant and none for a variant, a description; variants are named as such.
func TestEntriesWellFormed(t *testing.T) {
	c, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	samples := map[bool]int{}
	for _, e := range Entries {
		if e.Does == "" {
			t.Errorf("%s: says nothing of what it does", e.Name)
		}
		if e.Mutant() != !strings.HasPrefix(e.Name, "variant-") {
			t.Errorf("%s: a variant's name starts with variant-, a mutant's does not", e.Name)
		}
		if e.Mutant() && !slices.Contains(Operators, e.Operator) {
			t.Errorf("%s: operator %q not in the catalogue", e.Name, e.Operator)
		}
		if e.Mutant() == (len(e.Requirements) == 0) {
			t.Errorf("%s: a mutant names the requirements it breaks, a variant none", e.Name)
		}
		for _, id := range e.Requirements {
			if !c.Has(id) {
				t.Errorf("%s: unknown requirement %s", e.Name, id)
			}
		}
		if e.Level < 0 || e.Level > 10000 {
			t.Errorf("%s: level %d, want 0 (the newest) or a feature level of 1 to 10000", e.Name, e.Level)
		}
		if e.Sample {
			samples[e.Mutant()]++
		}
	}
	// The sample of make test: about 20 mutants and 5 variants, spread over the operators.
	if samples[true] < 15 || samples[true] > 25 || samples[false] != 5 {
		t.Errorf("sample: %d mutants and %d variants, want about 20 and 5", samples[true], samples[false])
	}
}

// tableRow is a row of a requirement × operator table in docs/mutation-*.md: the requirement
// ID in the first cell, the reason no operator fills the row (or the rest of it) in the last.
var tableRow = regexp.MustCompile(`^\|\s*([A-Z]+[0-9]*-[0-9]+)\s*\|`)

// reasons returns the requirement IDs that a table gives a reason for, from every
// docs/mutation-*.md.
func reasons(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("../../docs/mutation-*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no requirement × operator tables in docs: %v", err)
	}
	found := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			m := tableRow.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			cells := strings.Split(strings.TrimSuffix(strings.TrimSpace(line), "|"), "|")
			if strings.TrimSpace(cells[len(cells)-1]) != "" {
				found[m[1]] = true
			}
		}
	}
	return found
}

// Every requirement of the catalog is broken by a mutant or has a row saying why none is
// written, so the requirement × operator table is complete by construction: a requirement
// added to the catalog fails here until it gets one or the other.
func TestEveryRequirementAccountedFor(t *testing.T) {
	c, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	mutated := map[string]bool{}
	for _, e := range Entries {
		for _, id := range e.Requirements {
			mutated[id] = true
		}
	}
	why := reasons(t)
	for id := range why {
		if !c.Has(id) {
			t.Errorf("docs/mutation-*.md: a row for %s, which the catalog does not have", id)
		}
	}
	for _, id := range c.IDs() {
		if !mutated[id] && !why[id] {
			t.Errorf("%s: no mutant breaks it and no table in docs/mutation-*.md says why", id)
		}
	}
}

// The catalogue's files refuse what an Entry cannot hold: a misspelt field would otherwise
// drop a requirement or the sample mark without a word.
func TestLoadEntriesRefusesWhatAnEntryCannotHold(t *testing.T) {
	for name, text := range map[string]string{
		"a misspelt field": "- name: x\n  operator: wrong-value\n  requirement: [MSG-19]\n  does: d\n",
		"not a list":       "name: x\noperator: wrong-value\n",
		"a level as text":  "- name: x\n  operator: wrong-value\n  level: newest\n  does: d\n",
	} {
		if _, err := loadEntries(fstest.MapFS{"entries.yaml": {Data: []byte(text)}}); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if _, err := loadEntries(fstest.MapFS{}); err == nil {
		t.Error("a catalogue without entries*.yaml: loaded")
	}
	parts := fstest.MapFS{
		"entries_b.yaml": {Data: []byte("- {name: third, operator: variant, does: d}\n")},
		"entries.yaml":   {Data: []byte("- {name: first, operator: variant, does: d}\n")},
		"entries_a.yaml": {Data: []byte("- {name: second, operator: variant, does: d}\n")},
	}
	got, err := loadEntries(parts)
	if err != nil || len(got) != 3 || got[0].Name != "first" || got[1].Name != "second" || got[2].Name != "third" {
		t.Errorf("parts read as %v, %v: want entries.yaml first, then the parts in name order", got, err)
	}
}
