package verdicts_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness/report"
	"github.com/chatconform/chatconform/specs/catalog"
)

// everyBoundary selects make levels' sweep instead of the sample.
var everyBoundary = flag.Bool("every-boundary", false,
	"run the suite at every feature-level boundary (the catalogue's and the fake's) and the level below each, instead of the sample")

// sampleLevels are the feature levels make test runs the suite against the fake at: one below
// every boundary the document names, ones between that put the real server's changelog forms the
// harness meets on either side (docs/feature-levels.md; 450: the early push registration), 263
// and 287 (the presence protocol without history_limit_days), and the fake's current level.
var sampleLevels = []int{117, 160, 200, 263, 287, 300, 355, 400, 450, fixtures.Default().Realm.FeatureLevel}

// TestSuiteAtOlderLevels runs the whole suite against the fake acting as a server of each level:
// every requirement of a later level (or of a form replaced by then) must be reported not
// applicable, every other one passed: the suite skips what a level lacks and checks what it has.
// With -every-boundary (make levels) it runs at every boundary level and the one below it, the
// levels in parallel up to -test.parallel.
func TestSuiteAtOlderLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runner and runs the whole suite at each level")
	}
	cat, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	levels := sampleLevels
	if *everyBoundary {
		fake, err := fakeBoundaries(filepath.Join("..", "..", "fakeserver"))
		if err != nil {
			t.Fatal(err)
		}
		levels = sweepLevels(cat, fake, fixtures.Default().Realm.FeatureLevel)
		t.Logf("%d levels: %v", len(levels), levels)
	}
	bin := runner(t)
	// A level's failures are logged where its run ends, among hundreds of lines; CI keeps only
	// the end of the output, so they are repeated there, after every level has run.
	var failures failureLog
	t.Cleanup(func() {
		if lines := failures.all(); len(lines) > 0 {
			t.Errorf("%d failures at these levels:\n%s", len(lines), strings.Join(lines, "\n"))
		}
	})
	for _, level := range levels {
		t.Run(fmt.Sprintf("level %d", level), func(t *testing.T) {
			t.Parallel()
			suiteAtLevel(t, cat, bin, level, &failures)
		})
	}
}

// failureLog gathers the failures of the levels running in parallel.
type failureLog struct {
	mu    sync.Mutex
	lines []string
}

func (f *failureLog) add(level int, format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lines = append(f.lines, fmt.Sprintf("level %d: ", level)+fmt.Sprintf(format, args...))
}

func (f *failureLog) all() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.lines)
}

func suiteAtLevel(t *testing.T, cat *catalog.Catalog, bin string, level int, failures *failureLog) {
	fx := fixtures.Default()
	fx.Realm.FeatureLevel = level
	owner, _ := fx.UserByRole(fixtures.RoleOwner)
	fake := fakeserver.New(fakeserver.WithFixture(fx))
	srv := httptest.NewServer(fake)
	defer srv.Close()
	defer fake.Close()

	res := runIn(t, bin, srv.URL, owner, t.TempDir(), nil, nil)
	code, c := res.code, res.report
	wantNA := 0
	for _, r := range cat.Requirements {
		if later(r, level) {
			wantNA++
		}
	}
	n := c.Counts
	t.Logf("level %d: %d passed, %d not applicable, %d partial, %d skipped, %d failed (exit %d)",
		level, n.Passed, n.NotApplicable, n.Partial, n.Skipped, n.Failed, code)
	if code != 0 || n.Failed != 0 || n.Skipped != 0 || n.Partial != 0 {
		for _, r := range c.Requirements {
			if r.Status != report.Passed && r.Status != report.NotApplicable {
				t.Errorf("%s %s: %s", r.ID, r.Status, r.Reason)
				failures.add(level, "%s %s: %s", r.ID, r.Status, r.Reason)
			}
		}
		failures.add(level, "exit %d; %s", code, seedLine(res.console))
		t.Fatalf("exit %d: want every requirement passed or not applicable", code)
	}
	if n.NotApplicable != wantNA || n.Passed != n.Requirements-wantNA {
		t.Errorf("%d not applicable and %d passed: want the %d requirements of later levels not applicable and the other %d passed",
			n.NotApplicable, n.Passed, wantNA, n.Requirements-wantNA)
		for _, r := range c.Requirements {
			if later(catalogEntry(cat, r.ID), level) != (r.Status == report.NotApplicable) {
				t.Errorf("%s (min_level %d) is %s: %s", r.ID, r.MinLevel, r.Status, r.Reason)
				failures.add(level, "%s (min_level %d) is %s: %s", r.ID, r.MinLevel, r.Status, r.Reason)
			}
		}
	}
}

// seedLine is the line of a run's console that gives its Ginkgo seed, to run that order again.
func seedLine(console string) string {
	for line := range strings.Lines(console) {
		if strings.Contains(line, "Random Seed") {
			return strings.TrimSpace(line)
		}
	}
	return "no Random Seed line in the console"
}

// sweepLevels are every boundary of the catalogue (min_level, below_level) and of the fake,
// the level below each, and the fake's current level, in order.
func sweepLevels(cat *catalog.Catalog, fake []int, current int) []int {
	boundaries := slices.Clone(fake)
	for _, r := range cat.Requirements {
		for _, l := range []int{r.MinLevel, r.BelowLevel} {
			if l > 0 {
				boundaries = append(boundaries, l)
			}
		}
	}
	levels := []int{current}
	for _, b := range boundaries {
		levels = append(levels, b-1, b)
	}
	slices.Sort(levels)
	return slices.Compact(levels)
}

// fakeBoundaries are the levels of the fake's gates in its Go sources under dir (fakeGates).
func fakeBoundaries(dir string) ([]int, error) {
	gates, err := fakeGates(dir)
	levels := make([]int, 0, len(gates))
	for _, level := range gates {
		levels = append(levels, level)
	}
	return levels, err
}

// fakeGates are the fake's level gates in its Go sources under dir, by name: the integer
// constants named Level… (fakeserver/internal/realm/levels.go names most gates), and the
// since: fields of its tables (the permission-group settings' levels), each named by its
// file and the name: field beside it ("realm_group_defaults.can_create_groups").
func fakeGates(dir string) (map[string]int, error) {
	gates := map[string]int{}
	add := func(name string, e ast.Expr) error {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			return nil
		}
		n, err := strconv.Atoi(lit.Value)
		if err != nil {
			return nil
		}
		if _, dup := gates[name]; dup {
			return fmt.Errorf("the level gate %s is declared twice under %s", name, dir)
		}
		gates[name] = n
		return nil
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		table := strings.TrimSuffix(filepath.Base(path), ".go")
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if strings.HasPrefix(name.Name, "Level") && i < len(n.Values) && err == nil {
						err = add(name.Name, n.Values[i])
					}
				}
			case *ast.CompositeLit:
				if since, ok := field(n, "since").(*ast.BasicLit); ok && since.Kind == token.INT && err == nil {
					name, ok := field(n, "name").(*ast.BasicLit)
					if !ok || name.Kind != token.STRING {
						err = fmt.Errorf("%s: a since: field without a name: string beside it", path)
						return false
					}
					unquoted, _ := strconv.Unquote(name.Value)
					err = add(table+"."+unquoted, since)
				}
			}
			return err == nil
		})
		return err
	})
	if err == nil && len(gates) == 0 {
		err = fmt.Errorf("no Level… constants under %s: where did the fake's level gates go?", dir)
	}
	return gates, err
}

// field is the value of the keyed element key of a composite literal, or nil.
func field(lit *ast.CompositeLit, key string) ast.Expr {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == key {
				return kv.Value
			}
		}
	}
	return nil
}

// later reports whether r does not apply at level: it needs a later level, or names a form
// replaced at or before it.
func later(r catalog.Requirement, level int) bool {
	return r.MinLevel > level || (r.BelowLevel > 0 && level >= r.BelowLevel)
}

func catalogEntry(cat *catalog.Catalog, id string) catalog.Requirement {
	r, _ := cat.Get(id)
	return r
}
