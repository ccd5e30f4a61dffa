package ops

import (
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// Feature levels reach the specs only through the catalog: a requirement's min_level (and
// below_level, for a form replaced at a level) says at which levels its statement holds, so a
// target outside them reports the requirement not applicable instead of failing. Every spec
// gates on the requirements it names (specs/levels.go runs NeedCatalogLevels before each); a
// spec whose setup or read-back uses what another requirement's level brings names that
// requirement (NeedLevelOf), and a spec that meets a form that changed with the level asks the
// catalog which the target has (Reaches). specs/coverage checks that no level is written in a
// spec.

// Requirements is the catalog, loaded once.
var Requirements = sync.OnceValue(catalog.MustLoad)

// NeedCatalogLevels skips the running spec as not applicable when the target's feature
// level is below the min_level of a requirement the spec names, or at or above the
// below_level of one.
func NeedCatalogLevels(t *harness.Target) {
	GinkgoHelper()
	least, below := 0, 0
	for _, id := range harness.ReqIDs(CurrentSpecReport().Labels()) {
		if r, ok := Requirements().Get(id); ok {
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

// Requirement is the catalog's entry id; an unknown ID is a mistake in the spec.
func Requirement(id string) catalog.Requirement {
	r, ok := Requirements().Get(id)
	if !ok {
		panic(fmt.Sprintf("specs: no requirement %s in the catalog", id))
	}
	return r
}

// NeedLevelOf skips the running spec as not applicable unless the target is at a level
// where requirement id holds: for a spec whose setup or read-back uses what id's statement
// brings (a route, a parameter, a listing) beyond the requirements the spec checks.
func NeedLevelOf(t *harness.Target, id string) {
	GinkgoHelper()
	r := Requirement(id)
	t.NeedLevel(r.MinLevel)
	if r.BelowLevel > 0 {
		t.NeedLevelBelow(r.BelowLevel)
	}
}

// NeedLevelBefore skips the running spec as not applicable once the target has requirement
// id's level: for a spec about the form id's statement replaced there.
func NeedLevelBefore(t *harness.Target, id string) {
	GinkgoHelper()
	t.NeedLevelBelow(Requirement(id).MinLevel)
}

// Reaches reports whether requirement id holds at the target's level: for a spec that sends
// or reads a form which changed at that level, to use the one the target has.
func Reaches(t *harness.Target, id string) bool {
	r := Requirement(id)
	return t.FeatureLevel >= r.MinLevel && (r.BelowLevel == 0 || t.FeatureLevel < r.BelowLevel)
}

// EventWait bounds how long a spec waits for an event; events normally arrive at once.
const EventWait = 10 * time.Second
