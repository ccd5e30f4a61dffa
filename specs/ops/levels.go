package ops

import (
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// Feature levels: a spec that names a requirement with a min_level in the catalog gates on
// that level (t.NeedLevel), so a target below it reports the requirement not applicable
// instead of failing. Most specs call NeedLevel with the level written out, next to the
// rule; specs/coverage checks that every such gate is there and high enough.

// Requirements is the catalog, loaded once.
var Requirements = sync.OnceValue(catalog.MustLoad)

// NeedCatalogLevels skips the running spec as not applicable when the target's feature
// level is below the min_level of any requirement the spec names: for specs built from
// data (the role matrix), whose requirements vary from spec to spec.
func NeedCatalogLevels(t *harness.Target) {
	GinkgoHelper()
	level := 0
	for _, id := range harness.ReqIDs(CurrentSpecReport().Labels()) {
		if r, ok := Requirements().Get(id); ok {
			level = max(level, r.MinLevel)
		}
	}
	t.NeedLevel(level)
}

// EventWait bounds how long a spec waits for an event; events normally arrive at once.
const EventWait = 10 * time.Second
