package harness

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/specs/catalog"
)

// Each form one level below the real server's boundary and at it.
func TestLevelForms(t *testing.T) {
	cases := []struct {
		level            int
		direct, operator string
	}{
		{173, "private", "stream"},
		{174, "direct", "stream"},
		{249, "direct", "stream"},
		{250, "direct", "channel"},
	}
	for _, c := range cases {
		target := &Target{FeatureLevel: c.level}
		if got := target.DirectMessageType(); got != c.direct {
			t.Errorf("level %d: direct message type %q, want %q", c.level, got, c.direct)
		}
		if got := target.ChannelOperator(); got != c.operator {
			t.Errorf("level %d: channel operator %q, want %q", c.level, got, c.operator)
		}
	}
	for _, c := range []struct {
		level        int
		field, value string
	}{
		{175, "url_format_string", "https://x.test/%(org)s/%(id)s"},
		{176, "url_template", "https://x.test/{org}/{id}"},
	} {
		field, value := (&Target{FeatureLevel: c.level}).linkifierURLField("https://x.test/{org}/{id}")
		if field != c.field || value != c.value {
			t.Errorf("level %d: linkifier URL %s=%q, want %s=%q", c.level, field, value, c.field, c.value)
		}
	}
	for _, c := range []struct {
		answer map[string]any
		want   string
		ok     bool
	}{
		{map[string]any{"url": "/user_uploads/a", "uri": "/user_uploads/a"}, "/user_uploads/a", true},
		{map[string]any{"uri": "/user_uploads/b"}, "/user_uploads/b", true},
		{map[string]any{"result": "success"}, "", false},
	} {
		if got, ok := uploadURLOf(c.answer); got != c.want || ok != c.ok {
			t.Errorf("uploadURLOf(%v) = %q, %v; want %q, %v", c.answer, got, ok, c.want, c.ok)
		}
	}
}

// A form level that a requirement of the catalog states is that requirement's min_level: the
// harness sends the old form exactly where the specs stop applying the requirement.
func TestFormLevelsFollowTheCatalog(t *testing.T) {
	cat, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	for id, level := range map[string]int{
		"MSG-38":  levelWholeMessageFetch,
		"AUTH-16": levelTopicMoveGroup,
		"AUTH-17": levelChannelMoveGroup,
		"RES-23":  levelLinkifierURLTemplate,
	} {
		r, ok := cat.Get(id)
		if !ok {
			t.Errorf("%s: not in the catalog", id)
			continue
		}
		if r.MinLevel != level {
			t.Errorf("%s: min_level %d in the catalog, %d in the harness's form levels", id, r.MinLevel, level)
		}
	}
}

// No harness file but level_forms.go writes a feature level: levels live in its one table.
func TestNoLevelLiteralOutsideFormLevels(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") || p == "level_forms.go" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		found, err := levelLiterals(p, string(data))
		if err != nil {
			t.Fatal(err)
		}
		problems = append(problems, found...)
	}
	if len(problems) > 0 {
		t.Errorf("%d level literal(s) outside level_forms.go (name them there):\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
}

// The scan finds a level written in each way the harness has used one, and nothing else.
func TestLevelLiteralsFound(t *testing.T) {
	cases := []struct {
		name, body string
		found      int
	}{
		{"comparison", `if t.FeatureLevel >= 174 {}`, 1},
		{"comparison, literal first", `if 250 <= t.FeatureLevel {}`, 1},
		{"two in one condition", `if x > 0 && t.FeatureLevel < 311 || t.ServerFeatureLevel == 317 {}`, 2},
		{"a table of levels", `for _, p := range []struct{ name string; since int }{{"a", 316}, {"b", 310}} { _ = p }`, 2},
		{"a keyed field", `_ = struct{ Level int }{Level: 290}`, 1},
		{"an assignment", `level := 120; _ = level`, 1},
		{"a gate", `t.NeedLevel(300)`, 1},
		{"a named level", `if t.FeatureLevel >= levelChannelOperator {}`, 0},
		{"no level at all", `if t.FeatureLevel == 0 { n := 250; _ = n }`, 0},
		{"other numbers", `_ = []struct{ code, status int }{{100, 400}}`, 0},
	}
	for _, c := range cases {
		src := "package harness\nfunc f(t *Target, x int) {\n" + c.body + "\n}\n"
		found, err := levelLiterals("case.go", src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(found) != c.found {
			t.Errorf("%s: found %v, want %d", c.name, found, c.found)
		}
	}
}

// levelLiterals returns where src writes a feature level as a number: compared with, assigned
// to or given as a field or argument named for a level (a name with "level" in it, or since).
func levelLiterals(name, src string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, err
	}
	var found []string
	report := func(n ast.Node) {
		pos := fset.Position(n.Pos())
		found = append(found, fmt.Sprintf("%s:%d: %s", name, pos.Line, src[pos.Offset:fset.Position(n.End()).Offset]))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			switch n.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				if levelNamed(n.X) && levelNumber(n.Y) || levelNamed(n.Y) && levelNumber(n.X) {
					report(n)
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if i < len(n.Rhs) && levelNamed(lhs) && levelNumber(n.Rhs[i]) {
					report(n)
				}
			}
		case *ast.KeyValueExpr:
			if levelNamed(n.Key) && levelNumber(n.Value) {
				report(n)
			}
		case *ast.CallExpr:
			if levelNamed(n.Fun) {
				for _, a := range n.Args {
					if levelNumber(a) {
						report(n)
					}
				}
			}
		case *ast.CompositeLit:
			// A table of anonymous structs: the positional values of its level fields.
			at, ok := n.Type.(*ast.ArrayType)
			if !ok {
				return true
			}
			st, ok := at.Elt.(*ast.StructType)
			if !ok {
				return true
			}
			var fields []string
			for _, fl := range st.Fields.List {
				for _, id := range fl.Names {
					fields = append(fields, id.Name)
				}
			}
			for _, el := range n.Elts {
				row, ok := el.(*ast.CompositeLit)
				if !ok {
					continue
				}
				for i, v := range row.Elts {
					if _, keyed := v.(*ast.KeyValueExpr); !keyed && i < len(fields) && levelName(fields[i]) && levelNumber(v) {
						report(v)
					}
				}
			}
		}
		return true
	})
	return found, nil
}

// levelNamed is an identifier, field or function named for a level.
func levelNamed(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return levelName(e.Name)
	case *ast.SelectorExpr:
		return levelName(e.Sel.Name)
	}
	return false
}

func levelName(name string) bool {
	return strings.Contains(strings.ToLower(name), "level") || name == "since"
}

// levelNumber is an integer literal other than 0 (which stands for "no level").
func levelNumber(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.INT && lit.Value != "0"
}
