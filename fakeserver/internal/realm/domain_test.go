package realm

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDomainKnowsNoHTTP keeps HTTP out of the domain: a failure names a kind of error
// (apierr.Kind), and the HTTP layer decides the status.
func TestDomainKnowsNoHTTP(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "net/http" || strings.HasPrefix(p, "net/http/") {
				t.Errorf("%s imports %s", path, p)
			}
		}
	}
	if files < 50 {
		t.Fatalf("read %d files of the domain; the path is wrong", files)
	}
}
