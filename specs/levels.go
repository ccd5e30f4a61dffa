package specs

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// Every spec gates on the levels of its requirements (ops.NeedCatalogLevels), before any
// setup of its own: levels reach the specs only through the catalog.
var _ = BeforeEach(func() { ops.NeedCatalogLevels(harness.Current()) })
