package coverage

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
)

// TestMultiRequirementSpecs: one failing assertion must fail only the requirements it is
// about, so a spec names several IDs only where multi_ids.txt says why; a new such spec
// fails here until it is split or its reason is written down.
func TestMultiRequirementSpecs(t *testing.T) {
	data, err := os.ReadFile("multi_ids.txt")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		set, reason, ok := strings.Cut(line, " | ")
		if !ok || strings.TrimSpace(reason) == "" || strings.TrimSpace(reason) == "unreviewed" {
			t.Fatalf("multi_ids.txt: %q is not \"IDs | reason\"", line)
		}
		allowed[set] = reason
	}
	used := map[string]int{}
	var specs int
	for _, s := range preview().SpecReports.WithLeafNodeType(types.NodeTypeIt) {
		ids := harness.ReqIDs(s.Labels())
		if len(ids) < 2 {
			continue
		}
		specs++
		slices.Sort(ids)
		set := strings.Join(ids, " ")
		if _, ok := allowed[set]; !ok {
			t.Errorf("%q names %s: split it so each assertion's requirements are named alone, or list the set in multi_ids.txt with why every assertion checks them all", s.FullText(), set)
			continue
		}
		used[set]++
	}
	for set := range allowed {
		if used[set] == 0 {
			t.Errorf("multi_ids.txt lists %s, which no spec names any more: remove it", set)
		}
	}
	t.Logf("%d specs name more than one requirement, in %d sets", specs, len(used))
}
