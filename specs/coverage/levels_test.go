package coverage

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// TestSpecsGateOnFeatureLevels checks, without running a spec, that every spec gates on
// exactly the highest min_level of the requirements it names: not lower, so that a target
// below it is reported not applicable rather than failed; and not higher, so that no verdict
// is lost on a target between the two levels (a spec needing a later level names the
// requirement of that level, or the catalog gives its requirement that level).
//
// It reads the spec files: a spec's gate is the highest constant level of the NeedLevel
// calls in its It (or Entry and table body), in the BeforeEach and JustBeforeEach nodes of
// its containers, and in the functions of the spec package and of its helpers (specs/ops) these
// call; ops.NeedCatalogLevels counts
// as gating on every level. A spec whose gate is elsewhere (a closure stored in a
// variable, a level computed at run time) is reported, so move its gate where this check
// sees it.
func TestSpecsGateOnFeatureLevels(t *testing.T) {
	cat, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	src, err := parseSpecs("..")
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	checked := 0
	for _, s := range preview().SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		need, why := 0, []string{}
		for _, id := range harness.ReqIDs(s.Labels()) {
			if r, ok := cat.Get(id); ok && r.MinLevel > 0 {
				need = max(need, r.MinLevel)
				why = append(why, fmt.Sprintf("%s: %d", id, r.MinLevel))
			}
		}
		loc := s.LeafNodeLocation
		gate, err := src.gate(loc.FileName, loc.LineNumber)
		if need == 0 && err == nil && gate == 0 {
			continue
		}
		checked++
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s:%d %q: %v", filepath.Base(loc.FileName), loc.LineNumber, s.LeafNodeText, err))
		case gate > need && gate != everyLevel:
			problems = append(problems, fmt.Sprintf("%s:%d %q names %s but gates with NeedLevel(%d): over-gated",
				filepath.Base(loc.FileName), loc.LineNumber, s.LeafNodeText, levelsText(why), gate))
		case gate < need:
			got := "no NeedLevel"
			if gate > 0 {
				got = "NeedLevel(" + strconv.Itoa(gate) + ")"
			}
			problems = append(problems, fmt.Sprintf("%s:%d %q names %s but gates with %s",
				filepath.Base(loc.FileName), loc.LineNumber, s.LeafNodeText, strings.Join(why, ", "), got))
		}
	}
	if checked == 0 {
		t.Fatal("no spec names a requirement with a min_level: the check checks nothing")
	}
	slices.Sort(problems)
	problems = slices.Compact(problems)
	if len(problems) > 0 {
		t.Fatalf("%d spec(s) do not gate on the feature level of their requirements:\n  %s",
			len(problems), strings.Join(problems, "\n  "))
	}
	t.Logf("%d specs name requirements with a min_level or gate on a level; each gates on exactly its requirements' highest", checked)
}

func levelsText(why []string) string {
	if len(why) == 0 {
		return "no requirement with a min_level"
	}
	return strings.Join(why, ", ")
}

// everyLevel is the gate of ops.NeedCatalogLevels: whatever the spec names.
const everyLevel = math.MaxInt

// Names the check knows: Ginkgo's leaf and container nodes, its setup nodes, the gates.
var (
	leafNodes      = []string{"It", "FIt", "PIt", "XIt", "Specify", "FSpecify", "PSpecify", "Entry", "FEntry", "PEntry", "XEntry"}
	entryNodes     = []string{"Entry", "FEntry", "PEntry", "XEntry"}
	tableNodes     = []string{"DescribeTable", "FDescribeTable", "PDescribeTable", "XDescribeTable"}
	containerNodes = append([]string{"Describe", "FDescribe", "PDescribe", "XDescribe", "Context", "FContext", "PContext", "XContext",
		"When", "FWhen", "PWhen", "XWhen"}, tableNodes...)
	setupNodes = []string{"BeforeEach", "JustBeforeEach"}
)

const (
	needLevel     = "NeedLevel"
	catalogLevels = "NeedCatalogLevels"
)

// specSources are the parsed spec files and what their functions gate on.
type specSources struct {
	fset   *token.FileSet
	files  map[string]*ast.File // by absolute path
	consts map[string]int       // package-level integer constants
	funcs  map[string][]*ast.FuncDecl
	memo   map[*ast.FuncDecl]int
}

// parseSpecs parses the non-test Go files of the spec package in dir and of its helpers'
// package (dir/ops).
func parseSpecs(dir string) (*specSources, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	helpers, err := filepath.Glob(filepath.Join(dir, "ops", "*.go"))
	if err != nil {
		return nil, err
	}
	paths = append(paths, helpers...)
	src := &specSources{fset: token.NewFileSet(), files: map[string]*ast.File{}, consts: map[string]int{},
		funcs: map[string][]*ast.FuncDecl{}, memo: map[*ast.FuncDecl]int{}}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(src.fset, abs, nil, 0)
		if err != nil {
			return nil, err
		}
		src.files[abs] = f
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				src.funcs[d.Name.Name] = append(src.funcs[d.Name.Name], d)
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if n, ok := intLiteral(vs.Values[i]); ok {
								src.consts[name.Name] = n
							}
						}
					}
				}
			}
		}
	}
	if len(src.files) == 0 {
		return nil, fmt.Errorf("no spec files in %s", dir)
	}
	return src, nil
}

// gate returns the level the spec whose leaf node (It or Entry) is at file:line gates on.
func (src *specSources) gate(file string, line int) (int, error) {
	f, ok := src.files[file]
	if !ok {
		return 0, fmt.Errorf("not a file of the specs package")
	}
	leaf, ancestors := src.findLeaf(f, line)
	if leaf == nil {
		return 0, fmt.Errorf("no It or Entry call starts on this line")
	}
	regions := []ast.Node{leaf}
	if callName(leaf) != "" && slices.Contains(entryNodes, callName(leaf)) {
		regions = append(regions, tableBody(ancestors)...)
	}
	for _, a := range ancestors {
		call, ok := a.(*ast.CallExpr)
		if !ok || !slices.Contains(containerNodes, callName(call)) {
			continue
		}
		for _, arg := range call.Args {
			body, ok := arg.(*ast.FuncLit)
			if !ok {
				continue
			}
			for _, stmt := range body.Body.List {
				if es, ok := stmt.(*ast.ExprStmt); ok {
					if c, ok := es.X.(*ast.CallExpr); ok && slices.Contains(setupNodes, callName(c)) {
						regions = append(regions, c)
					}
				}
			}
		}
	}
	level := 0
	for _, r := range regions {
		level = max(level, src.levelIn(r, map[*ast.FuncDecl]bool{}))
	}
	return level, nil
}

// findLeaf returns the leaf-node call starting on line and its ancestors, outermost first.
func (src *specSources) findLeaf(f *ast.File, line int) (*ast.CallExpr, []ast.Node) {
	var (
		stack []ast.Node
		found *ast.CallExpr
		path  []ast.Node
	)
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && slices.Contains(leafNodes, callName(call)) &&
			src.fset.Position(call.Pos()).Line == line {
			found, path = call, slices.Clone(stack)
			return false
		}
		stack = append(stack, n)
		return true
	})
	return found, path
}

// tableBody returns where a table entry's spec body is: the arguments of the enclosing
// DescribeTable other than its entries; for a table built from data (entries made in a
// loop, outside the DescribeTable call), the function that builds it.
func tableBody(ancestors []ast.Node) []ast.Node {
	for i := len(ancestors) - 1; i >= 0; i-- {
		if call, ok := ancestors[i].(*ast.CallExpr); ok && slices.Contains(tableNodes, callName(call)) {
			var out []ast.Node
			for _, arg := range call.Args {
				if c, ok := arg.(*ast.CallExpr); ok && slices.Contains(entryNodes, callName(c)) {
					continue
				}
				out = append(out, arg)
			}
			return out
		}
	}
	for i := len(ancestors) - 1; i >= 0; i-- {
		if lit, ok := ancestors[i].(*ast.FuncLit); ok {
			return []ast.Node{lit}
		}
	}
	return nil
}

// levelIn is the highest gate among the calls in n, following calls of the package's own
// functions and methods (by name).
func (src *specSources) levelIn(n ast.Node, visiting map[*ast.FuncDecl]bool) int {
	level := 0
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch name := callName(call); name {
		case needLevel:
			if len(call.Args) == 1 {
				if v, ok := src.constValue(call.Args[0]); ok {
					level = max(level, v)
				}
			}
		case catalogLevels:
			level = everyLevel
		default:
			for _, d := range src.funcs[name] {
				level = max(level, src.funcLevel(d, visiting))
			}
		}
		return true
	})
	return level
}

func (src *specSources) funcLevel(d *ast.FuncDecl, visiting map[*ast.FuncDecl]bool) int {
	if v, ok := src.memo[d]; ok {
		return v
	}
	if visiting[d] || d.Body == nil {
		return 0
	}
	visiting[d] = true
	v := src.levelIn(d.Body, visiting)
	delete(visiting, d)
	src.memo[d] = v
	return v
}

// constValue evaluates a NeedLevel argument: an integer literal, or a constant of the spec
// package or of its helpers' (ops.Name).
func (src *specSources) constValue(e ast.Expr) (int, bool) {
	if n, ok := intLiteral(e); ok {
		return n, true
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "ops" {
			e = sel.Sel
		}
	}
	if id, ok := e.(*ast.Ident); ok {
		n, ok := src.consts[id.Name]
		return n, ok
	}
	return 0, false
}

func intLiteral(e ast.Expr) (int, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(lit.Value, "_", ""))
	return n, err == nil
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
