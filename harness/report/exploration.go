package report

import (
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// ExploreProfile is the profile of an exploration's report (chatconform explore): its
// findings are reported as the suite's, apart from the suite's own profiles.
const ExploreProfile = "explore"

// Exploration is what a chatconform explore run did, for the report of its findings.
type Exploration struct {
	Seed      uint64 `json:"seed"`
	Sequences int    `json:"sequences"`
	// Steps are the steps of every sequence together; StepsPerSequence bounds one sequence.
	Steps            int     `json:"steps"`
	StepsPerSequence int     `json:"steps_per_sequence"`
	Seconds          float64 `json:"seconds"`
	// Findings is the number of differences from the reference, each a failed check.
	Findings int `json:"findings"`
	// Unreached are the requirements of the field table none of whose fields the run
	// compared: not told either way, so not among the report's requirements.
	Unreached []string `json:"unreached,omitempty"`
	// Gaps are fields the reference sent that the field table has no row for: not compared.
	Gaps []string `json:"gaps,omitempty"`
}

// BuildExploration makes the report of an exploration from its checks as a Ginkgo report: one
// failed spec per finding and one passed spec per requirement whose fields it compared without
// a difference, each naming its requirements as the suite's specs do. It is Build's report with
// only the requirements those checks name, under one profile of their own (ExploreProfile),
// and what the run did.
func BuildExploration(cat *catalog.Catalog, r types.Report, t *harness.Target, x Exploration) *Conformance {
	c := Build(cat, r, t)
	kept := []Requirement{}
	counts := Counts{Specs: c.Counts.Specs}
	for _, req := range c.Requirements {
		if len(req.Specs) > 0 {
			kept = append(kept, req)
			countRequirement(&counts, req)
		}
	}
	c.Requirements, c.Counts, c.Exploration = kept, counts, &x
	c.Profiles = []Profile{profileOf(ExploreProfile, kept)}
	return c
}
