package coverage

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/specs/catalog"
)

// TestSpecsTakeLevelsFromTheCatalog checks, without running a spec, that feature levels reach
// the specs only through the catalog: every spec gates on its requirements' min_level and
// below_level (specs/levels.go, before each spec), so no spec file or helper but the levels files calls
// NeedLevel or NeedLevelBelow or reads the target's FeatureLevel, and the helpers that take
// a requirement's level (ops.NeedLevelOf, NeedLevelBefore, Reaches) name a requirement of the
// catalog. A level written in a spec would drift from the catalog the report judges by.
func TestSpecsTakeLevelsFromTheCatalog(t *testing.T) {
	cat, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join("..", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	helperFiles, err := filepath.Glob(filepath.Join("..", "ops", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, helperFiles...)
	fset := token.NewFileSet()
	var problems []string
	helpers := 0
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") || slices.Contains(levelsFiles, filepath.ToSlash(p)) {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			at := func() string {
				pos := fset.Position(n.Pos())
				return fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if n.Sel.Name == "FeatureLevel" {
					problems = append(problems, at()+": reads FeatureLevel (ask the catalog: ops.Reaches)")
				}
			case *ast.CallExpr:
				name := callName(n)
				switch {
				case slices.Contains(levelGates, name):
					problems = append(problems, at()+": calls "+name+" (the spec's requirements gate it; another requirement's level: ops.NeedLevelOf)")
				case slices.Contains(levelHelpers, name):
					helpers++
					// An ID held in a variable (a table's) is checked where the table names it.
					if id, ok := stringArg(n, 1); ok && !known(cat, id) {
						problems = append(problems, at()+": "+name+" names no requirement of the catalog")
					}
				}
			}
			return true
		})
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		t.Fatalf("%d level(s) in the specs not taken from the catalog:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	t.Logf("no spec file reads a level; %d calls take a requirement's level from the catalog", helpers)
}

// levelsFiles turn the catalog's levels into gates: the helpers (ops) and the spec package's
// BeforeEach that runs them.
var levelsFiles = []string{"../levels.go", "../ops/levels.go"}

var (
	// levelGates are the harness's gates on a level number.
	levelGates = []string{"NeedLevel", "NeedLevelBelow"}
	// levelHelpers take a requirement ID (their second argument) and use its levels.
	levelHelpers = []string{"NeedLevelOf", "NeedLevelBefore", "Reaches"}
)

func known(cat *catalog.Catalog, id string) bool {
	_, ok := cat.Get(id)
	return ok
}

// stringArg is call's i-th argument when it is a string literal.
func stringArg(call *ast.CallExpr, i int) (string, bool) {
	if i >= len(call.Args) {
		return "", false
	}
	lit, ok := call.Args[i].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// callName is the called function's or method's name ("" for other calls).
func callName(call *ast.CallExpr) string {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name
	case *ast.SelectorExpr:
		return fn.Sel.Name
	}
	return ""
}
