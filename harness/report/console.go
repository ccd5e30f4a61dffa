package report

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/onsi/ginkgo/v2/types"
)

// Console bounds what a run prints about its failed specs: the first spec of each finding in
// full, as Ginkgo reports it, every later one on one line that names the finding. A server
// with one systemic bug then prints a few failures in full instead of hundreds.
//
// The suite tells it of every spec as it ends (ConsoleAdd, from a ReportAfterEach, which Ginkgo
// runs just before its reporter prints the spec); the runner's output filter asks it, at each
// failed spec the reporter prints, what to print instead (Next).
type Console struct {
	mu    sync.Mutex
	shown map[string]bool // the findings printed in full
	queue []ConsoleEntry
}

// ConsoleEntry is what to print for one failed spec.
type ConsoleEntry struct {
	// Line is one line to print: before Ginkgo's report of the spec when Replace is false (the
	// first of its finding), in place of it when Replace is true.
	Line    string
	Replace bool
}

// NewConsole returns an empty console.
func NewConsole() *Console { return &Console{shown: map[string]bool{}} }

// Add queues what to print for a spec that has just ended; nothing for one that did not fail.
func (c *Console) Add(s types.SpecReport) {
	if !s.Failed() {
		return
	}
	f := findingOf(s)
	id := f.id
	name := specName(s)
	if labels := s.Labels(); len(labels) > 0 {
		name += " [" + strings.Join(labels, ", ") + "]"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, seen := c.shown[id]; !seen {
		c.shown[id] = true
		c.queue = append(c.queue, ConsoleEntry{Line: fmt.Sprintf("finding %s, first seen here: %s; further specs that fail the same way get one line each", id, gist(f.title, 160))})
		return
	}
	c.queue = append(c.queue, ConsoleEntry{Replace: true,
		Line: fmt.Sprintf("✗ %s %s: finding %s, shown above (%s)", strings.ToUpper(s.State.String()), name, id, gist(f.title, 80))})
}

// Next returns what to print for the next failed spec Ginkgo's reporter prints, and false when
// nothing was queued for it (a suite node's failure: printed as Ginkgo reports it).
func (c *Console) Next() (ConsoleEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return ConsoleEntry{}, false
	}
	e := c.queue[0]
	c.queue = c.queue[1:]
	return e, true
}

// Findings is the number of distinct findings seen so far.
func (c *Console) Findings() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.shown)
}

var console atomic.Pointer[Console]

// UseConsole makes c the run's console; the runner calls it when it filters Ginkgo's output
// through it. Without one, ConsoleAdd does nothing and Ginkgo prints every failure in full.
func UseConsole(c *Console) { console.Store(c) }

// ConsoleAdd tells the run's console, if any, of a spec that has just ended.
func ConsoleAdd(s types.SpecReport) {
	if c := console.Load(); c != nil {
		c.Add(s)
	}
}
