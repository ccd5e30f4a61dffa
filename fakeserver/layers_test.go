package fakeserver_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// The fake's layers, top first (docs/ARCHITECTURE.md draws them). A package may import the
// packages of its own layer and of the layers below it, never one above nor one it stands
// apart from (apart): the compiler keeps the packages apart, this keeps the direction. A
// pattern ending in /... names a folder and everything below it.
var layers = [][]string{
	{"cmd/..."},
	{"fakeserver/serve", "fakeserver/container"},
	{"fakeserver"},                  // the Go test double and the assembly
	{"fakeserver/internal/control"}, // the control API: the journal and faults are the pipeline's
	{"fakeserver/internal/pipeline"},
	{"fakeserver/internal/api"},
	{"fakeserver/internal/handler", "fakeserver/internal/config"},
	{"fakeserver/internal/realm/..."}, // the domain
	{"fakeserver/internal/apierr", "fakeserver/internal/params", "fakeserver/internal/events",
		"fakeserver/internal/clock", "fakeserver/internal/markdown", "fakeserver/internal/mutation",
		"fakeserver/internal/httpx", "fakeserver/openapi/...", "fixtures/...", "internal/secrets"},
}

// apart are packages of two layers that still may not import each other either way: the
// control API stands beside the API's handlers, and neither knows the other.
var apart = [][2]string{{"fakeserver/internal/control", "fakeserver/internal/api"}}

const module = "github.com/chatconform/chatconform/"

// imports lists the module's packages with the packages each imports (not its tests'), by
// path inside the module; go list reads only the headers of the files.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	all := map[string][]string{}
	lines := bufio.NewScanner(bytes.NewReader(out))
	for lines.Scan() {
		f := strings.Fields(lines.Text())
		pkg := strings.TrimPrefix(f[0], module)
		for _, imp := range f[1:] {
			all[pkg] = append(all[pkg], strings.TrimPrefix(imp, module))
		}
		if _, ok := all[pkg]; !ok {
			all[pkg] = nil
		}
	}
	if len(all) < 20 {
		t.Fatalf("go list named only %d packages", len(all))
	}
	return all
}

// layerOf is the index of the layer pkg belongs to, -1 for none.
func layerOf(pkg string) int {
	for i, layer := range layers {
		for _, p := range layer {
			if base, tree := strings.CutSuffix(p, "/..."); tree && (pkg == base || strings.HasPrefix(pkg, base+"/")) || pkg == p {
				return i
			}
		}
	}
	return -1
}

// against tells why pkg may not import imp: imp is of a layer above pkg's, or the two are
// apart; "" when it may.
func against(pkg, imp string) string {
	for _, pair := range apart {
		if pkg == pair[0] && imp == pair[1] || pkg == pair[1] && imp == pair[0] {
			return "a package it stands apart from"
		}
	}
	if from, to := layerOf(pkg), layerOf(imp); from >= 0 && to >= 0 && to < from {
		return "a layer above it"
	}
	return ""
}

// TestLayersImportDownward: no package of the fake imports one of a layer above its own (the
// API's handlers importing the pipeline or the control API, the domain importing a handler...),
// nor one it stands apart from.
func TestLayersImportDownward(t *testing.T) {
	all := imports(t)
	for _, want := range []string{"fakeserver", "fakeserver/internal/control", "fakeserver/internal/api", "fakeserver/internal/pipeline", "fakeserver/internal/handler", "fakeserver/internal/realm"} {
		if _, ok := all[want]; !ok {
			t.Errorf("go list does not name %s: the layers above are out of date", want)
		}
	}
	for pkg, imps := range all {
		for _, imp := range imps {
			if why := against(pkg, imp); why != "" {
				t.Errorf("%s imports %s, %s (see layers in this file and docs/ARCHITECTURE.md)", pkg, imp, why)
			}
		}
	}
}

// TestDomainKnowsNoHTTP: the domain (internal/realm) imports no HTTP package: a rule returns a
// plain error made with internal/apierr, and the handlers translate.
func TestDomainKnowsNoHTTP(t *testing.T) {
	for pkg, imps := range imports(t) {
		if layerOf(pkg) != layerOf("fakeserver/internal/realm") {
			continue
		}
		for _, imp := range imps {
			if imp == "net/http" || strings.HasPrefix(imp, "net/http/") || strings.HasPrefix(imp, "github.com/go-chi/") {
				t.Errorf("%s imports %s: the domain knows no HTTP", pkg, imp)
			}
		}
	}
}

// TestLayersCatchAWrongImport: the check itself tells a wrong direction from a right one.
func TestLayersCatchAWrongImport(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		wrong    bool
	}{
		{"fakeserver/internal/api", "fakeserver/internal/pipeline", true},
		{"fakeserver/internal/api", "fakeserver/internal/control", true},
		{"fakeserver/internal/pipeline", "fakeserver/internal/control", true},
		{"fakeserver/internal/handler", "fakeserver/internal/control", true},
		{"fakeserver/internal/control", "fakeserver", true},
		{"fakeserver/internal/control", "fakeserver/internal/api", true},
		{"fakeserver/internal/realm/messages", "fakeserver/internal/handler", true},
		{"fakeserver/internal/realm", "fakeserver", true},
		{"fakeserver/internal/handler", "fakeserver/internal/api", true},
		{"fakeserver/internal/pipeline", "fakeserver/internal/api", false},
		{"fakeserver/internal/control", "fakeserver/internal/pipeline", false},
		{"fakeserver/internal/control", "fakeserver/internal/realm", false},
		{"fakeserver", "fakeserver/internal/control", false},
		{"fakeserver/internal/api", "fakeserver/internal/realm", false},
		{"fakeserver/internal/events", "fakeserver/internal/apierr", false},
	} {
		if got := against(tc.from, tc.to) != ""; got != tc.wrong {
			t.Errorf("%s -> %s: against the direction %v, want %v", tc.from, tc.to, got, tc.wrong)
		}
	}
}
