package apierr_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestDomainReturnsError keeps the domain on plain error results: a function of the domain
// packages that returned a *apierr.Error variable as an error could hand the writer a typed
// nil, an error that is not nil. Only a constructor (one return of a call, never nil) may
// keep the concrete type.
func TestDomainReturnsError(t *testing.T) {
	files := 0
	for _, dir := range []string{"../realm", "../events", "../params"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			files++
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				var typ *ast.FuncType
				var body *ast.BlockStmt
				switch fn := n.(type) {
				case *ast.FuncDecl:
					typ, body = fn.Type, fn.Body
				case *ast.FuncLit:
					typ, body = fn.Type, fn.Body
				default:
					return true
				}
				if typ.Results == nil || constructor(body) {
					return true
				}
				for _, r := range typ.Results.List {
					if isAPIErrorPointer(r.Type) {
						t.Errorf("%s: returns *apierr.Error; return error", fset.Position(typ.Pos()))
					}
				}
				return true
			})
		}
	}
	if files < 50 {
		t.Fatalf("read %d files of the domain; the paths are wrong", files)
	}
}

func isAPIErrorPointer(e ast.Expr) bool {
	star, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "apierr" && sel.Sel.Name == "Error"
}

// constructor reports whether body is a single return of a call, as errNoDraft's.
func constructor(body *ast.BlockStmt) bool {
	if body == nil || len(body.List) != 1 {
		return false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	_, isCall := ret.Results[0].(*ast.CallExpr)
	return isCall
}
