package verdicts_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/chatconform/chatconform/specs/catalog"
)

// levelGatesFile says, for each of the fake's level gates, which requirements' specs see the
// fake change there (level_gates.yaml's header gives the rule).
const levelGatesFile = "level_gates.yaml"

// gateEntry is one gate's entry in levelGatesFile.
type gateEntry struct {
	Requirements []string `yaml:"requirements"`
	// Why says why no spec can observe the gate; only where Requirements is empty.
	Why string `yaml:"why"`
}

// loadLevelGates reads levelGatesFile, refusing unknown keys in an entry and keys out of order.
func loadLevelGates() (map[string]gateEntry, error) {
	data, err := os.ReadFile(levelGatesFile)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", levelGatesFile, err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want one mapping of gate names to entries", levelGatesFile)
	}
	var keys []string
	for i := 0; i < len(doc.Content[0].Content); i += 2 {
		keys = append(keys, doc.Content[0].Content[i].Value)
	}
	if !slices.IsSorted(keys) {
		return nil, fmt.Errorf("%s: keep the entries sorted by key", levelGatesFile)
	}
	entries := map[string]gateEntry{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("%s: %w", levelGatesFile, err)
	}
	return entries, nil
}

// readLevelGates reads the fake's gates and levelGatesFile's entries.
func readLevelGates() (map[string]int, map[string]gateEntry, error) {
	gates, err := fakeGates(filepath.Join("..", "..", "fakeserver"))
	if err != nil {
		return nil, nil, err
	}
	entries, err := loadLevelGates()
	return gates, entries, err
}

// requirementsAt is the union of the requirements of every fake gate at exactly level, sorted:
// the specs make levels runs at that boundary and the level below it for the fake's own gates.
func requirementsAt(gates map[string]int, entries map[string]gateEntry, level int) ([]string, error) {
	var ids []string
	for name, l := range gates {
		if l != level {
			continue
		}
		e, ok := entries[name]
		if !ok {
			return nil, fmt.Errorf("the fake's gate %s (level %d) has no entry in %s", name, l, levelGatesFile)
		}
		ids = append(ids, e.Requirements...)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// TestLevelGates keeps levelGatesFile in step with the fake and the catalogue: every gate has
// an entry, every entry names a gate, and each lists known requirements or says why none.
func TestLevelGates(t *testing.T) {
	gates, entries, err := readLevelGates()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	for name, level := range gates {
		if _, ok := entries[name]; !ok {
			t.Errorf("the fake's gate %s (level %d) has no entry in %s", name, level, levelGatesFile)
		}
	}
	for name, e := range entries {
		if _, ok := gates[name]; !ok {
			t.Errorf("%s: %s names no gate of the fake (a Level… constant or realm_group_defaults.<setting> with a since: level)", levelGatesFile, name)
		}
		switch {
		case len(e.Requirements) == 0 && e.Why == "":
			t.Errorf("%s: %s lists no requirements and says no why", levelGatesFile, name)
		case len(e.Requirements) > 0 && e.Why != "":
			t.Errorf("%s: %s lists requirements and a why: the why is only for a gate no spec observes", levelGatesFile, name)
		}
		for i, id := range e.Requirements {
			if _, ok := cat.Get(id); !ok {
				t.Errorf("%s: %s names %s, which is not in the catalogue", levelGatesFile, name, id)
			}
			if slices.Contains(e.Requirements[:i], id) {
				t.Errorf("%s: %s names %s twice", levelGatesFile, name, id)
			}
		}
	}
}

// TestRequirementsAt checks that the union at each gate's level holds that gate's
// requirements, sorted and each once, and is empty at a level with no gate.
func TestRequirementsAt(t *testing.T) {
	gates, entries, err := readLevelGates()
	if err != nil {
		t.Fatal(err)
	}
	for name, level := range gates {
		ids, err := requirementsAt(gates, entries, level)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
			t.Errorf("requirements at level %d = %v: want sorted and each once", level, ids)
		}
		for _, id := range entries[name].Requirements {
			if !slices.Contains(ids, id) {
				t.Errorf("requirements at level %d = %v: lacks %s of %s", level, ids, id, name)
			}
		}
	}
	// At a level no gate has.
	if ids, err := requirementsAt(gates, entries, 0); err != nil || len(ids) != 0 {
		t.Errorf("requirements at level 0 = %v, %v: want none", ids, err)
	}
}
