package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// CoverageError lists every mismatch between the specs and the catalog.
type CoverageError struct {
	// Unknown maps requirement IDs that no catalog entry has to the specs
	// naming them.
	Unknown map[string][]string
	// Uncovered are IDs of requirements, not pending, that no spec names.
	Uncovered []string
	// StillPending maps IDs marked pending in the catalog to the specs that
	// already name them (delete the pending line).
	StillPending map[string][]string
}

// Error lists every problem, one a line.
func (e *CoverageError) Error() string {
	var lines []string
	for _, id := range sortedKeys(e.Unknown) {
		lines = append(lines, fmt.Sprintf("unknown requirement %s named by: %s", id, strings.Join(e.Unknown[id], "; ")))
	}
	for _, id := range e.Uncovered {
		lines = append(lines, fmt.Sprintf("requirement %s has no spec", id))
	}
	for _, id := range sortedKeys(e.StillPending) {
		lines = append(lines, fmt.Sprintf("requirement %s is marked pending but has a spec (delete its pending line): %s", id, strings.Join(e.StillPending[id], "; ")))
	}
	return fmt.Sprintf("requirements coverage: %d problem(s):\n  %s", len(lines), strings.Join(lines, "\n  "))
}

// CheckCoverage checks the specs of a run (a dry run is enough) against the
// catalog: every requirement label names a catalog ID, every requirement
// not pending has a spec, and no pending requirement has one yet. Specs
// marked pending in Ginkgo (PIt) do not count as covering. It returns nil
// or a *CoverageError.
func CheckCoverage(cat *catalog.Catalog, specs types.SpecReports) error {
	e := &CoverageError{Unknown: map[string][]string{}, StillPending: map[string][]string{}}
	named := map[string]bool{}
	for _, s := range specs {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		for _, id := range harness.ReqIDs(s.Labels()) {
			req, ok := cat.Get(id)
			switch {
			case !ok:
				e.Unknown[id] = appendOnce(e.Unknown[id], s.FullText())
			case s.State == types.SpecStatePending:
				// A placeholder neither covers nor contradicts "pending".
			case req.Pending != "":
				e.StillPending[id] = appendOnce(e.StillPending[id], s.FullText())
			default:
				named[id] = true
			}
		}
	}
	for _, r := range cat.Requirements {
		if r.Pending == "" && !named[r.ID] {
			e.Uncovered = append(e.Uncovered, r.ID)
		}
	}
	if len(e.Unknown) == 0 && len(e.Uncovered) == 0 && len(e.StillPending) == 0 {
		return nil
	}
	return e
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
