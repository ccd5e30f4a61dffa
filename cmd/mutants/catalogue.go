package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"gopkg.in/yaml.v3"
)

// Operator is a kind of mutation: a way a server can break a rule while keeping the shape of
// its replies, derived from the kinds of statement the API document makes.
type Operator string

// The catalogue of mutation operators (docs/mutation.md describes each).
const (
	WrongValue     Operator = "wrong-value"     // the right type, the wrong value: another object's id, a constant, per message where per conversation
	Boundary       Operator = "boundary"        // off by one at a documented limit, in either direction
	RefusedApplied Operator = "refused-applied" // the error is answered and the change happens anyway
	StaleView      Operator = "stale-view"      // applied, but one place that shows it stays as it was
	HalfPair       Operator = "half-pair"       // one half of a pair: add but not remove, mute but not unmute
	ActorKind      Operator = "actor-kind"      // the rule holds for one kind of actor but not another
	Combination    Operator = "combination"     // a combination the document names goes wrong
	Privacy        Operator = "privacy"         // a visibility rule broken on one surface
	Isolation      Operator = "isolation"       // an event reaches a queue it must not reach
	ErrorCode      Operator = "error-code"      // the documented error code replaced by another
	EventState     Operator = "event-state"     // event data disagrees with the state it announces
	Ordering       Operator = "ordering"        // ordering and paging: sort order, anchors, newest first
	Repeat         Operator = "repeat"          // a repeat of the same request does not do what the document says
	Complete       Operator = "complete"        // complete of a batch operation wrong
)

// Operators lists the operators in the table's column order.
var Operators = []Operator{WrongValue, Boundary, RefusedApplied, StaleView, HalfPair, ActorKind,
	Combination, Privacy, Isolation, ErrorCode, EventState, Ordering, Repeat, Complete}

// Variant is the operator column of the benign variants: not a broken rule but another
// legitimate choice where the document leaves one open.
const Variant Operator = "variant"

// Entry is one mutant or benign variant: the name of its mutation point in the fake
// (mutation.On(Name)), its operator, the requirements it breaks (none for a variant) and
// what the fake does differently.
type Entry struct {
	Name         string   `json:"name" yaml:"name"`
	Operator     Operator `json:"operator" yaml:"operator"`
	Requirements []string `json:"requirements,omitempty" yaml:"requirements"`
	Does         string   `json:"does" yaml:"does"`
	// Level is the feature level the fake runs at for this entry, for a rule below a level
	// boundary (an older form); 0 runs it at its newest level.
	Level int `json:"level,omitempty" yaml:"level"`
	// Sample puts the entry in the fixed sample that make test runs.
	Sample bool `json:"sample,omitempty" yaml:"sample"`
}

// Mutant reports whether the entry breaks a rule (a variant breaks none).
func (e Entry) Mutant() bool { return e.Operator != Variant }

// The catalogue is data, one table a part (entries.yaml, then entries_<part>.yaml for each
// part in name order), so that its parts grow without touching each other or any code.
//
//go:embed entries*.yaml
var entryFiles embed.FS

// Entries are the mutants and benign variants of every part of the catalogue, in order.
var Entries = mustLoadEntries(entryFiles)

// loadEntries reads every entries*.yaml of fsys, refusing a field an Entry does not have.
func loadEntries(fsys fs.FS) ([]Entry, error) {
	names, err := fs.Glob(fsys, "entries*.yaml")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, errors.New("no entries*.yaml in the catalogue")
	}
	var all []Entry
	for _, name := range names { // fs.Glob sorts: entries.yaml first, then the parts
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var part []Entry
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&part); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		all = append(all, part...)
	}
	return all, nil
}

func mustLoadEntries(fsys fs.FS) []Entry {
	entries, err := loadEntries(fsys)
	if err != nil {
		panic("cmd/mutants: " + err.Error())
	}
	return entries
}
