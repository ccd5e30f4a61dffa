package report

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// Build makes the conformance report of a run: one entry per catalog
// requirement, in catalog order, whose status aggregates the specs naming
// it — failed if any failed; passed when every spec that applies ran and
// passed; partial when some passed and others that apply did not run
// (filtered out, a capability missing), naming those; not-applicable when
// every spec was skipped as not applicable; skipped otherwise (no spec ran,
// or none was written); pending when the catalog marks it pending. The target may be nil when the
// suite's setup failed; the report then shows that failure.
func Build(cat *catalog.Catalog, r types.Report, t *harness.Target) *Conformance {
	c := &Conformance{
		APIVersion:  Version,
		Kind:        Kind,
		GeneratedAt: time.Now().UTC(),
		Suite: Suite{
			Description:    r.SuiteDescription,
			Succeeded:      r.SuiteSucceeded,
			StartTime:      r.StartTime,
			EndTime:        r.EndTime,
			RunTime:        r.RunTime.Round(time.Millisecond).String(),
			HarnessVersion: harness.Version,
			CatalogVersion: catalog.Version(),
			FailureReasons: r.SpecialSuiteFailureReasons,
		},
		Target: TargetFrom(t),
	}

	byReq := map[string][]types.SpecReport{}
	for _, s := range r.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			// Suite nodes (BeforeSuite, …) have no requirement; their
			// failure explains every skipped spec, so it must be shown.
			if s.Failed() {
				c.OtherFailures = append(c.OtherFailures, failureOf(s))
			}
			continue
		}
		countSpec(&c.Counts.Specs, s)
		known := false
		for _, id := range harness.ReqIDs(s.Labels()) {
			if cat.Has(id) {
				byReq[id] = append(byReq[id], s)
				known = true
			}
		}
		if !known && s.Failed() {
			c.OtherFailures = append(c.OtherFailures, failureOf(s))
		}
	}

	for _, req := range cat.Requirements {
		out := aggregate(req, byReq[req.ID])
		c.Requirements = append(c.Requirements, out)
		countRequirement(&c.Counts, out)
	}
	c.Findings = findingsOf(c, findingKeys(r))
	c.Profiles = profiles(c.Requirements)
	if t != nil && t.Config.InsecureSkipVerify {
		c.Warnings = append(c.Warnings, harness.InsecureWarning)
	}
	return c
}

// aggregate decides one requirement's status from its specs.
func aggregate(req catalog.Requirement, specs []types.SpecReport) Requirement {
	out := Requirement{
		ID: req.ID, Section: req.Section, Text: req.Text, Feature: req.Feature,
		MinLevel: req.MinLevel, BelowLevel: req.BelowLevel, Specs: []string{},
	}
	var passed, failed, skipped int
	var skipReasons []string
	for _, s := range specs {
		out.Specs = append(out.Specs, s.FullText())
		kind, reason := classify(s)
		if kind != Passed && kind != Failed {
			if remedy := remedyOf(reason); remedy != "" {
				out.RunWith = appendOnce(out.RunWith, remedy)
			}
		}
		switch kind {
		case Passed:
			passed++
		case Failed:
			failed++
			out.Failures = append(out.Failures, failureOf(s))
		case NotApplicable:
			skipReasons = appendOnce(skipReasons, reason)
		default:
			skipped++
			skipReasons = appendOnce(skipReasons, reason)
			out.NotRun = append(out.NotRun, s.FullText())
		}
	}

	switch {
	case req.Pending != "":
		out.Status = Pending
		out.Reason = "spec not written yet (" + req.Pending + ")"
	case len(specs) == 0:
		out.Status = Skipped
		out.Reason = "no spec of this run names the requirement"
	case failed > 0:
		out.Status = Failed
		out.Reason = fmt.Sprintf("%d of %d specs failed", failed, len(specs))
	case passed > 0 && skipped > 0:
		// Passed on what ran only: a partial check is never read as a full one.
		out.Status = Partial
		out.Reason = fmt.Sprintf("%d of %d specs not run: %s", skipped, len(specs), strings.Join(skipReasons, "; "))
	case passed > 0:
		out.Status = Passed
		// Specs that do not apply to this target (feature, level) take nothing from a pass.
		if rest := len(specs) - passed; rest > 0 {
			out.Reason = fmt.Sprintf("%d of %d specs not applicable: %s", rest, len(specs), strings.Join(skipReasons, "; "))
		}
	case skipped == 0:
		out.Status = NotApplicable
		out.Reason = strings.Join(skipReasons, "; ")
	default:
		// Some spec was skipped for a reason other than "not applicable":
		// the requirement applies but was not checked.
		out.Status = Skipped
		out.Reason = strings.Join(skipReasons, "; ")
	}
	return out
}

// classify maps a spec's state to a requirement status, with the reason of
// a skip.
func classify(s types.SpecReport) (Status, string) {
	switch {
	case s.State == types.SpecStatePassed:
		return Passed, ""
	case s.State.Is(types.SpecStateFailureStates):
		return Failed, ""
	case s.State == types.SpecStatePending:
		return Skipped, "spec is marked pending"
	}
	msg := strings.TrimSpace(s.Failure.Message)
	switch {
	case strings.HasPrefix(msg, harness.NotApplicablePrefix):
		return NotApplicable, msg
	case msg == "":
		return Skipped, "not run (filtered out, or the suite stopped early)"
	}
	return Skipped, msg
}

// failureOf extracts what a reader needs to understand a failure.
func failureOf(s types.SpecReport) Failure {
	f := Failure{
		Spec:      specName(s),
		State:     s.State.String(),
		Message:   harness.RedactText(s.Failure.Message),
		Output:    harness.RedactText(s.CapturedGinkgoWriterOutput),
		Exchanges: harness.ExchangesOf(s.ReportEntries),
	}
	if s.Failure.ForwardedPanic != "" {
		f.Message = strings.TrimSpace(f.Message + "\npanic: " + harness.RedactText(s.Failure.ForwardedPanic))
	}
	if s.Failure.Location.FileName != "" {
		f.Location = s.Failure.Location.String()
	}
	f.Site = assertionSite(s.Failure.Location)
	f.FailingRequest, f.FailingExchange = failingExchange(s, f.Exchanges)
	for _, e := range s.ReportEntries {
		if e.Name != harness.ExchangesEntry {
			f.Notes = append(f.Notes, harness.RedactText(e.Name+": "+e.StringRepresentation()))
		}
	}
	return f
}

// failingExchange finds the exchange the failing assertion was about: the last request the
// spec sent before it failed. Ginkgo records where in the spec's output the failure came, so
// the cleanup's requests after it (deleting what the spec made) are never taken for it. It
// returns the exchange's text, credentials redacted, and its index among the structured ones.
func failingExchange(s types.SpecReport, exchanges []harness.Exchange) (string, *int) {
	const request = "--> "
	text := ""
	out, at := s.CapturedGinkgoWriterOutput, s.Failure.TimelineLocation.Offset
	if at > 0 && at <= len(out) {
		if i := strings.LastIndex(out[:at], request); i >= 0 {
			text = strings.TrimSpace(harness.RedactText(out[i:at]))
		}
	}
	when := s.Failure.TimelineLocation.Time
	var index *int
	for i, e := range exchanges {
		if !when.IsZero() && !e.Start.IsZero() && !e.Start.After(when) {
			index = &i
		}
	}
	return text, index
}

func countSpec(c *SpecCounts, s types.SpecReport) {
	c.Total++
	switch {
	case s.State == types.SpecStatePassed:
		c.Passed++
	case s.State.Is(types.SpecStateFailureStates):
		c.Failed++
	case s.State == types.SpecStatePending:
		c.Pending++
	default:
		c.Skipped++
	}
}

func countRequirement(c *Counts, r Requirement) {
	c.Requirements++
	if len(r.Specs) > 0 {
		c.Covered++
	}
	switch r.Status {
	case Passed:
		c.Passed++
	case Partial:
		c.Partial++
	case Failed:
		c.Failed++
	case Skipped:
		c.Skipped++
	case NotApplicable:
		c.NotApplicable++
	case Pending:
		c.Pending++
	}
}

// setting is a runner setting named in a skip reason ("-chatconform.owner-permissions").
var setting = regexp.MustCompile(`-` + regexp.QuoteMeta(harness.FlagPrefix) + `[a-z-]+`)

// feature is the feature a not-applicable skip says the target does not claim.
var feature = regexp.MustCompile(`does not claim feature ([a-z_]+)`)

// remedyOf says what would run a spec skipped for reason, or "" when nothing a user sets
// would (a feature level, a filter): the setting the reason names, the feature to claim, the
// capability to offer.
func remedyOf(reason string) string {
	if flag := setting.FindString(reason); flag != "" {
		return "set `" + flag + "`"
	}
	if m := feature.FindStringSubmatch(reason); m != nil {
		return "claim feature " + m[1] + " (`-" + harness.FlagPrefix + "features`)"
	}
	if caps, ok := strings.CutPrefix(reason, harness.NeedsCapabilityPrefix+" "); ok {
		return "offer capability " + caps + " (`-" + harness.FlagPrefix + "capabilities`)"
	}
	return ""
}
