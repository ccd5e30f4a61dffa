package verdicts_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
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
	"run the suite at the sample levels and, at every other feature-level boundary (the catalogue's and the fake's) and the level below each, the specs of the requirements that change there")

// sampleLevels are the feature levels the whole suite runs at: one below every boundary the
// document names, ones between that put the real server's changelog forms the harness meets
// on either side (docs/feature-levels.md; 450: the early push registration), 263 and 287 (the
// presence protocol without history_limit_days), and the fake's current level.
var sampleLevels = []int{117, 160, 200, 263, 287, 300, 355, 400, 450, fixtures.Default().Realm.FeatureLevel}

// TestSuiteAtOlderLevels runs the suite against the fake acting as a server of each level:
// every requirement of a later level (or of a form replaced by then) must be reported not
// applicable, every other one passed: the suite skips what a level lacks and checks what it has.
// At the sample levels the whole suite runs. With -every-boundary (make levels) it also runs
// at every other boundary level and the one below it, each time the specs of the requirements
// that change at that boundary: the catalogue's entries whose min_level or below_level is the
// boundary, and the requirements level_gates.yaml gives the fake's gates there. The levels run
// in parallel up to -test.parallel.
func TestSuiteAtOlderLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runner and runs the whole suite at each level")
	}
	cat, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	plan := map[int][]string{} // level → requirement IDs to run; nil for the whole suite
	for _, l := range sampleLevels {
		plan[l] = nil
	}
	if *everyBoundary {
		gates, entries, err := readLevelGates()
		if err != nil {
			t.Fatal(err)
		}
		empty := 0
		for _, l := range sweepLevels(cat, slices.Collect(maps.Values(gates)), fixtures.Default().Realm.FeatureLevel) {
			if _, full := plan[l]; full {
				continue
			}
			ids, err := changedAt(cat, gates, entries, l)
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) == 0 {
				// Only gates no spec can observe (level_gates.yaml gives each one's reason).
				t.Logf("level %d: not run: no requirement changes at %d or %d", l, l, l+1)
				empty++
				continue
			}
			plan[l] = ids
		}
		t.Logf("the whole suite at %d levels %v; at %d other boundary levels and those below them, the specs of the requirements that change there; %d levels with none",
			len(sampleLevels), sampleLevels, len(plan)-len(sampleLevels), empty)
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
	levels := slices.Sorted(maps.Keys(plan))
	for _, level := range levels {
		t.Run(fmt.Sprintf("level %d", level), func(t *testing.T) {
			t.Parallel()
			suiteAtLevel(t, cat, bin, level, plan[level], &failures)
		})
	}
}

// changedAt are the requirements whose verdict or whose fake behaviour changes between level
// and the one above it, or between the one below and level: those of the catalogue entries
// whose min_level or below_level is level or level+1, and those of the fake's gates there.
func changedAt(cat *catalog.Catalog, gates map[string]int, entries map[string]gateEntry, level int) ([]string, error) {
	var ids []string
	for _, b := range []int{level, level + 1} {
		for _, r := range cat.Requirements {
			if r.MinLevel == b || r.BelowLevel == b {
				ids = append(ids, r.ID)
			}
		}
		gated, err := requirementsAt(gates, entries, b)
		if err != nil {
			return nil, err
		}
		ids = append(ids, gated...)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
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

// suiteAtLevel runs the suite against a fake of level: the whole suite when only is nil, else
// the specs of the requirements only names. Each requirement it checks must be not applicable
// when it belongs to a later level (or a replaced form), passed otherwise.
func suiteAtLevel(t *testing.T, cat *catalog.Catalog, bin string, level int, only []string, failures *failureLog) {
	fx := fixtures.Default()
	fx.Realm.FeatureLevel = level
	owner, _ := fx.UserByRole(fixtures.RoleOwner)
	fake := fakeserver.New(fakeserver.WithFixture(fx))
	srv := httptest.NewServer(fake)
	defer srv.Close()
	defer fake.Close()

	var args []string
	if only != nil {
		args = []string{"-only-requirements=" + strings.Join(only, ",")}
	}
	res := runIn(t, bin, srv.URL, owner, t.TempDir(), args, nil)
	n := res.report.Counts
	t.Logf("level %d: %d passed, %d not applicable, %d partial, %d skipped, %d failed (exit %d)%s",
		level, n.Passed, n.NotApplicable, n.Partial, n.Skipped, n.Failed, res.code, selection(only, len(cat.Requirements)))
	checked, applied := 0, 0
	for _, r := range res.report.Requirements {
		if only != nil && !slices.Contains(only, r.ID) {
			continue
		}
		checked++
		want := report.Passed
		if later(catalogEntry(cat, r.ID), level) {
			want = report.NotApplicable
		} else {
			applied++
		}
		if r.Status != want {
			t.Errorf("%s (min_level %d) is %s, want %s: %s", r.ID, r.MinLevel, r.Status, want, r.Reason)
			failures.add(level, "%s (min_level %d) is %s, want %s: %s", r.ID, r.MinLevel, r.Status, want, r.Reason)
		}
	}
	want := len(cat.Requirements)
	if only != nil {
		want = len(only)
	}
	if checked != want {
		t.Errorf("the report has %d of the %d requirements this run checks", checked, want)
	}
	// A run none of whose requirements applies is refused as invalid settings (exit 2): below
	// the level of everything that changes at a boundary, the selection names later rules only.
	wantCode := 0
	if applied == 0 {
		wantCode = 2
	}
	if res.code != wantCode || t.Failed() {
		failures.add(level, "exit %d; %s", res.code, seedLine(res.console))
		t.Fatalf("exit %d, want %d: every requirement checked passed or not applicable", res.code, wantCode)
	}
}

// selection says which requirements a level's run checks, for its log line.
func selection(only []string, all int) string {
	if only == nil {
		return ""
	}
	return fmt.Sprintf("; %d of %d requirements, those that change here: %s", len(only), all, strings.Join(only, " "))
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
