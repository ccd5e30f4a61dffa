package harness

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"
)

// Skip reasons start with one of these prefixes; the report classifies a
// skipped spec by them (docs/design.md, "Capabilities" and "Features and levels gate requirements").
const (
	// NeedsCapabilityPrefix starts the reason of a spec skipped because the
	// target lacks a control-API capability: reported as skipped.
	NeedsCapabilityPrefix = "needs capability"
	// NotApplicablePrefix starts the reason of a spec skipped because its
	// requirement does not apply to the target (feature not claimed, feature
	// level too low): reported as not applicable.
	NotApplicablePrefix = "not applicable:"
)

// ReqLabelPrefix starts every requirement label ("req:OP06-01").
const ReqLabelPrefix = "req:"

// reqID is the requirement ID format of the catalog: an area and a
// two-digit number; operations are OP01..OP21.
var reqID = regexp.MustCompile(`^(CONV|MSG|RES|STATE|OP(0[1-9]|1[0-9]|2[01])|AUTH|EVENT|ERR|LIMIT|VER)-[0-9]{2}$`)

// Req names the requirements a spec checks, as Ginkgo labels "req:<ID>":
//
//	It("rejects an empty topic", harness.Req("OP01-04"), func() { … })
//
// It panics on a malformed ID, so a typo stops the suite while the spec
// tree is built; unknown (well-formed) IDs are caught by the coverage check.
func Req(ids ...string) ginkgo.Labels {
	if len(ids) == 0 {
		panic("harness.Req: no requirement IDs")
	}
	labels := make(ginkgo.Labels, 0, len(ids))
	for _, id := range ids {
		if !reqID.MatchString(id) {
			panic(fmt.Sprintf("harness.Req: malformed requirement ID %q (want AREA-NN, e.g. OP06-01)", id))
		}
		labels = append(labels, ReqLabelPrefix+id)
	}
	return labels
}

// ReqIDs returns the requirement IDs among a spec's labels.
func ReqIDs(labels []string) []string {
	var ids []string
	for _, l := range labels {
		if id, ok := strings.CutPrefix(l, ReqLabelPrefix); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// NeedCapability skips the spec, reported as skipped with the reason
// "needs capability <names>", unless the target has every capability named.
func (t *Target) NeedCapability(caps ...string) {
	ginkgo.GinkgoHelper()
	var missing []string
	for _, c := range caps {
		if !t.Capabilities[c] {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		ginkgo.Skip(NeedsCapabilityPrefix + " " + strings.Join(missing, ", "))
	}
}

// NeedFeature skips the spec as not applicable unless the target claims
// the feature (push, vcall, jwt).
func (t *Target) NeedFeature(f string) {
	ginkgo.GinkgoHelper()
	if !slices.Contains(KnownFeatures, f) {
		// A typo would make the spec silently not applicable everywhere.
		ginkgo.Fail(fmt.Sprintf("harness: NeedFeature(%q): unknown feature (known: %s)", f, strings.Join(KnownFeatures, ", ")))
	}
	if !t.Features[f] {
		ginkgo.Skip(fmt.Sprintf("%s target does not claim feature %s", NotApplicablePrefix, f))
	}
}

// NeedLevel skips the spec as not applicable when the target's feature
// level is below n.
func (t *Target) NeedLevel(n int) {
	ginkgo.GinkgoHelper()
	if t.FeatureLevel < n {
		ginkgo.Skip(fmt.Sprintf("%s needs feature level %d, target has %d", NotApplicablePrefix, n, t.FeatureLevel))
	}
}

// NeedLevelBelow skips the spec as not applicable when the target's
// feature level is n or more, for behaviour the document gives only before
// a level boundary (for example a result replaced at some level).
func (t *Target) NeedLevelBelow(n int) {
	ginkgo.GinkgoHelper()
	if t.FeatureLevel >= n {
		ginkgo.Skip(fmt.Sprintf("%s needs feature level below %d, target has %d", NotApplicablePrefix, n, t.FeatureLevel))
	}
}

// requireSerial fails a spec that changes what every spec shares (realm settings, the fake's
// configuration or clock) unless it is marked Serial: run beside other specs, the change
// would leak into them.
func requireSerial(what string) {
	ginkgo.GinkgoHelper()
	if !ginkgo.CurrentSpecReport().IsSerial {
		ginkgo.Fail("harness: " + what + " changes what every spec shares; mark the spec Serial")
	}
}

// NeedsSetupPrefix starts the reason of a spec skipped because the target lacks setup that
// no API of the suite can do (an account permission such as can_change_user_emails, a
// login method): reported as skipped, with what to set up.
const NeedsSetupPrefix = "needs setup:"

// SkipNeedsSetup skips the spec as needing setup; reason says what is missing and how to
// provide it.
func SkipNeedsSetup(reason string) {
	ginkgo.GinkgoHelper()
	ginkgo.Skip(NeedsSetupPrefix + " " + reason)
}
