// Package report turns a Ginkgo run of the conformance suite into a
// per-requirement conformance report (JSON and HTML) and checks that the
// suite's specs and the requirements catalog match.
package report

import (
	"time"

	"github.com/chatconform/chatconform/harness"
)

// Version identifies the report's schema; it changes when a field changes
// meaning or goes away (adding fields keeps it).
const Version = "chatconform.dev/conformance/v1"

// Kind names the document type in Conformance.Kind.
const Kind = "ConformanceReport"

// Status is a requirement's outcome.
type Status string

// Requirement outcomes. Partial means some of its specs passed and the others
// that apply did not run; blocked means it failed, but only by a finding of another
// requirement that failed (its specs stopped at that one's check, before their own); skipped means it was not checked (a capability is
// missing, or no spec ran); not applicable means it does not apply to the
// target (feature not claimed, feature level); pending means the catalog
// marks its spec as not written yet.
const (
	Passed        Status = "passed"
	Partial       Status = "partial"
	Failed        Status = "failed"
	Blocked       Status = "blocked"
	Skipped       Status = "skipped"
	NotApplicable Status = "not-applicable"
	Pending       Status = "pending"
)

// Conformance is the machine-readable conformance report.
type Conformance struct {
	APIVersion  string    `json:"apiVersion"`
	Kind        string    `json:"kind"`
	GeneratedAt time.Time `json:"generated_at"`
	Suite       Suite     `json:"suite"`
	Target      Target    `json:"target"`
	Counts      Counts    `json:"counts"`
	// Findings group the failures: one per assertion failing the same way, most specs first.
	Findings []Finding `json:"findings"`
	// Profiles are the core and the extended profiles, each with its result.
	Profiles     []Profile     `json:"profiles"`
	Requirements []Requirement `json:"requirements"`
	// Warnings are what a reader must know to trust the report (certificates not checked).
	Warnings []string `json:"warnings,omitempty"`
	// OtherFailures are failures no requirement accounts for: suite setup
	// and teardown nodes, and failed specs that name no known requirement.
	OtherFailures []Failure `json:"other_failures,omitempty"`
	// Exploration, in the report of a chatconform explore run, says what the run did; its
	// requirements are then only those its checks name, under the profile ExploreProfile.
	Exploration *Exploration `json:"exploration,omitempty"`
	// Bounded, when set, says what the report left out of its failures to stay small (Bound),
	// and how to have it all.
	Bounded *Bounded `json:"bounded,omitempty"`
}

// Suite describes the run.
type Suite struct {
	Description    string    `json:"description"`
	Succeeded      bool      `json:"succeeded"`
	StartTime      time.Time `json:"start_time"`
	EndTime        time.Time `json:"end_time"`
	RunTime        string    `json:"run_time"`
	HarnessVersion string    `json:"harness_version"`
	// CatalogVersion names the requirements catalog the run checked (catalog.Version).
	CatalogVersion string `json:"catalog_version"`
	// FailureReasons are Ginkgo's suite-level reasons (interrupted, …).
	FailureReasons []string `json:"failure_reasons,omitempty"`
}

// Target describes the server under test, credentials redacted.
type Target struct {
	URL                string         `json:"url"`
	Config             harness.Config `json:"config"`
	FeatureLevel       int            `json:"feature_level"`
	ServerFeatureLevel int            `json:"server_feature_level"`
	ServerVersion      string         `json:"server_version,omitempty"`
	Features           []string       `json:"features"`
	Capabilities       []string       `json:"capabilities"`
	CapabilitySource   string         `json:"capability_source"`
	Realm              harness.Realm  `json:"realm"`
}

// TargetFrom describes a connected target; the configuration is redacted.
// A nil target (the suite's setup failed) gives an empty description.
func TargetFrom(t *harness.Target) Target {
	if t == nil {
		return Target{Features: []string{}, Capabilities: []string{}}
	}
	return Target{
		URL:                t.URL,
		Config:             t.Config.Redacted(),
		FeatureLevel:       t.FeatureLevel,
		ServerFeatureLevel: t.ServerFeatureLevel,
		ServerVersion:      t.ServerVersion,
		Features:           t.FeatureList(),
		Capabilities:       t.CapabilityList(),
		CapabilitySource:   t.CapabilitySource,
		Realm:              t.Realm,
	}
}

// Counts sums the requirements by status, and the specs by state.
type Counts struct {
	Requirements int `json:"requirements"`
	Passed       int `json:"passed"`
	Partial      int `json:"partial"`
	Failed       int `json:"failed"`
	// Blocked counts the requirements that failed only by another requirement's finding.
	Blocked       int `json:"blocked"`
	Skipped       int `json:"skipped"`
	NotApplicable int `json:"not_applicable"`
	Pending       int `json:"pending"`
	// Covered counts requirements that at least one spec of the run names.
	Covered int        `json:"covered"`
	Specs   SpecCounts `json:"specs"`
}

// SpecCounts sums the specs by Ginkgo state.
type SpecCounts struct {
	Total   int `json:"total"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Pending int `json:"pending"`
}

// Requirement is one catalog entry and its outcome.
type Requirement struct {
	ID       string `json:"id"`
	Section  string `json:"section"`
	Text     string `json:"text"`
	Feature  string `json:"feature,omitempty"`
	MinLevel int    `json:"min_level,omitempty"`
	// BelowLevel, when set, is the level from which the requirement no longer applies.
	BelowLevel int    `json:"below_level,omitempty"`
	Status     Status `json:"status"`
	// Reason explains any status but passed.
	Reason string `json:"reason,omitempty"`
	// Specs are the full texts of the specs that name the requirement.
	Specs []string `json:"specs"`
	// NotRun are the specs that apply but did not run, for a partial (or
	// skipped) requirement.
	NotRun []string `json:"not_run,omitempty"`
	// RunWith says what would run the specs that did not run (skipped, partial, or not
	// applicable for a feature not claimed): "set `-chatconform.owner-permissions`", one
	// entry per distinct remedy, from the skip reasons.
	RunWith []string `json:"run_with,omitempty"`
	// BlockedBy, for a blocked requirement, are the requirements whose findings are all its
	// failures.
	BlockedBy []string  `json:"blocked_by,omitempty"`
	Failures  []Failure `json:"failures,omitempty"`
}

// Failure is one failed spec (or suite node).
type Failure struct {
	Spec     string `json:"spec"`
	State    string `json:"state"`
	Message  string `json:"message"`
	Location string `json:"location,omitempty"`
	// Site is where the failing assertion is, the harness helper for a shared one (Location
	// is the spec's line).
	Site string `json:"site,omitempty"`
	// Finding is the ID of the finding the failure belongs to (Conformance.Findings).
	Finding string `json:"finding,omitempty"`
	// FailingRequest is the text of the exchange the failing assertion was about: the one
	// whose response a failing httpexpect assertion checked, else the last one before the
	// failure; so never one of the spec's cleanup.
	FailingRequest string `json:"failing_request,omitempty"`
	// FailingExchange is the index in Exchanges of that exchange.
	FailingExchange *int `json:"failing_exchange,omitempty"`
	// FailingBy says how that exchange was found: ByAssertion (the assertion named it) or
	// ByOrder (the last request before the failure).
	FailingBy string `json:"failing_by,omitempty"`
	// failingAt is where FailingRequest starts in Output, nil when not known.
	failingAt *int
	// Output is the spec's captured output as text: every HTTP exchange it made and what
	// the harness noted, credentials redacted.
	Output string `json:"output,omitempty"`
	// Exchanges are the spec's HTTP exchanges, structured, credentials redacted.
	Exchanges []harness.Exchange `json:"exchanges,omitempty"`
	// Notes are the spec's report entries, such as the HTTP status seen.
	Notes []string `json:"notes,omitempty"`
	// Omitted, when set, says what a bounded report left out of this failure, and why.
	Omitted *Omitted `json:"omitted,omitempty"`
}
