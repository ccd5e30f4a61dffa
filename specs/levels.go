package specs

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// Feature levels reach the specs only through the catalog: a requirement's min_level (and
// below_level, for a form replaced at a level) says at which levels its statement holds, so a
// target outside them reports the requirement not applicable instead of failing. Every spec
// gates on the requirements it names (the BeforeEach below); a spec whose setup or read-back
// uses what another requirement's level brings names that requirement (needLevelOf), and a
// spec that meets a form that changed with the level asks the catalog which the target has
// (reaches). specs/coverage checks that no level is written in a spec.

// requirements is the catalog, loaded once.
var requirements = sync.OnceValue(catalog.MustLoad)

// Every spec gates on the levels of its requirements, before any setup of its own.
var _ = BeforeEach(func() { needCatalogLevels(harness.Current()) })

// needCatalogLevels skips the running spec as not applicable when the target's feature
// level is below the min_level of a requirement the spec names, or at or above the
// below_level of one.
func needCatalogLevels(t *harness.Target) {
	GinkgoHelper()
	least, below := 0, 0
	for _, id := range harness.ReqIDs(CurrentSpecReport().Labels()) {
		if r, ok := requirements().Get(id); ok {
			least = max(least, r.MinLevel)
			if r.BelowLevel > 0 && (below == 0 || r.BelowLevel < below) {
				below = r.BelowLevel
			}
		}
	}
	t.NeedLevel(least)
	if below > 0 {
		t.NeedLevelBelow(below)
	}
}

// requirement is the catalog's entry id; an unknown ID is a mistake in the spec.
func requirement(id string) catalog.Requirement {
	r, ok := requirements().Get(id)
	if !ok {
		panic(fmt.Sprintf("specs: no requirement %s in the catalog", id))
	}
	return r
}

// needLevelOf skips the running spec as not applicable unless the target is at a level
// where requirement id holds: for a spec whose setup or read-back uses what id's statement
// brings (a route, a parameter, a listing) beyond the requirements the spec checks.
func needLevelOf(t *harness.Target, id string) {
	GinkgoHelper()
	r := requirement(id)
	t.NeedLevel(r.MinLevel)
	if r.BelowLevel > 0 {
		t.NeedLevelBelow(r.BelowLevel)
	}
}

// needLevelBefore skips the running spec as not applicable once the target has requirement
// id's level: for a spec about the form id's statement replaced there.
func needLevelBefore(t *harness.Target, id string) {
	GinkgoHelper()
	t.NeedLevelBelow(requirement(id).MinLevel)
}

// reaches reports whether requirement id holds at the target's level: for a spec that sends
// or reads a form which changed at that level, to use the one the target has.
func reaches(t *harness.Target, id string) bool {
	r := requirement(id)
	return t.FeatureLevel >= r.MinLevel && (r.BelowLevel == 0 || t.FeatureLevel < r.BelowLevel)
}
