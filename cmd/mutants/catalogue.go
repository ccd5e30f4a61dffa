package main

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
	Name         string   `json:"name"`
	Operator     Operator `json:"operator"`
	Requirements []string `json:"requirements,omitempty"`
	Does         string   `json:"does"`
	// Level is the feature level the fake runs at for this entry, for a rule below a level
	// boundary (an older form); 0 runs it at its newest level.
	Level int `json:"level,omitempty"`
	// Sample puts the entry in the fixed sample that make test runs.
	Sample bool `json:"sample,omitempty"`
}

// Mutant reports whether the entry breaks a rule (a variant breaks none).
func (e Entry) Mutant() bool { return e.Operator != Variant }

// sample marks an entry as a member of the fixed sample.
func sample(e Entry) Entry { e.Sample = true; return e }

func reqs(ids ...string) []string { return ids }
