package fakeserver

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"gopkg.in/yaml.v3"

	"github.com/chatconform/chatconform/fakeserver/internal/api"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
	"github.com/chatconform/chatconform/fakeserver/openapi"
	"github.com/chatconform/chatconform/fakeserver/openapi/check"
)

// oldestLevel is the oldest feature level the fake answers as (the level runs go down to it):
// an operation older than that is served at every level.
const oldestLevel = 117

// clientOperation is one line of openapi/client_operations.txt.
type clientOperation struct {
	method, path string
	since, until int  // until 0: never removed
	realServer   bool // false: an operation of the API document only
	reason       string
	line         int
}

var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// samplePath is a concrete path under the API for a listed path: an email for {email},
// 1 for every other parameter.
func (op clientOperation) samplePath() string {
	return api.Prefix + pathParam.ReplaceAllStringFunc(op.path, func(p string) string {
		if p == "{email}" {
			return "iago@chat.example.test"
		}
		return "1"
	})
}

// shape is the path with its parameters unnamed, to compare with the description's paths.
func shape(path string) string { return pathParam.ReplaceAllString(path, "{}") }

func readClientOperations(t *testing.T) []clientOperation {
	t.Helper()
	var ops []clientOperation
	sc := bufio.NewScanner(bytes.NewReader(openapi.ClientOperations()))
	for n := 1; sc.Scan(); n++ {
		text, reason, _ := strings.Cut(sc.Text(), " : ")
		if text = strings.TrimSpace(text); text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) < 3 || len(f) > 4 {
			t.Fatalf("client_operations.txt:%d: want METHOD PATH SINCE [until=LEVEL]: %q", n, text)
		}
		op := clientOperation{method: f[0], path: f[1], reason: strings.TrimSpace(reason), line: n, realServer: f[2] != "-"}
		if op.realServer {
			since, err := strconv.Atoi(f[2])
			if err != nil {
				t.Fatalf("client_operations.txt:%d: level %q", n, f[2])
			}
			op.since = since
		}
		if len(f) == 4 {
			until, ok := strings.CutPrefix(f[3], "until=")
			level, err := strconv.Atoi(until)
			if !ok || err != nil || level <= op.since {
				t.Fatalf("client_operations.txt:%d: %q is not until=LEVEL past the first level", n, f[3])
			}
			op.until = level
		}
		ops = append(ops, op)
	}
	return ops
}

// TestClientOperations holds the fake to the real server's client operations: every listed
// operation is in the fake's OpenAPI description and router, gated at the listed levels,
// unless listed with the reason it is not; and every operation the description has under the
// API is in the list, so that the fake invents none.
func TestClientOperations(t *testing.T) {
	checker, err := check.New()
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	defer s.Close()
	ops := readClientOperations(t)
	listed, seen, served, real := map[string]bool{}, map[string]bool{}, 0, 0
	for _, op := range ops {
		if key := op.method + " " + op.path; seen[key] {
			t.Errorf("client_operations.txt:%d: %s listed twice", op.line, key)
		} else {
			seen[key] = true
		}
		listed[op.method+" "+shape(op.path)] = true
		if op.realServer {
			real++
		}
		documented := checker.Documented(op.method, op.samplePath())
		switch {
		case op.reason != "" && documented:
			t.Errorf("client_operations.txt:%d: %s %s is listed as not served (%s) but the description has it: drop the reason", op.line, op.method, op.path, op.reason)
		case op.reason != "":
			continue
		case !documented:
			t.Errorf("client_operations.txt:%d: the real server's client operation %s %s is not in the fake's description: serve it, or list why not", op.line, op.method, op.path)
			continue
		}
		if op.realServer {
			served++
		}
		rctx := chi.NewRouteContext()
		if !pipeline.Routes().Match(rctx, op.method, op.samplePath()) {
			t.Errorf("client_operations.txt:%d: %s %s is described but the router has no route for it", op.line, op.method, op.path)
			continue
		}
		checkGate(t, s, op, rctx.RoutePattern())
	}
	t.Logf("%d of the real server's %d client operations served", served, real)

	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(openapi.YAML(), &doc); err != nil {
		t.Fatal(err)
	}
	for path, item := range doc.Paths {
		rest, isAPI := strings.CutPrefix(path, api.Prefix)
		if !isAPI {
			continue
		}
		for method := range item {
			m := strings.ToUpper(method)
			if slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE"}, m) && !listed[m+" "+shape(rest)] {
				t.Errorf("the description has %s %s, which client_operations.txt does not list (an operation the real server lacks?)", m, path)
			}
		}
	}
}

// checkGate: the route is served exactly from the listed level (at every level the fake
// answers as, for an older operation) and, for a removed one, until the listed level.
func checkGate(t *testing.T, s *Server, op clientOperation, pattern string) {
	t.Helper()
	servesAt := func(level int) bool { return api.ServedAt(level, op.method, pattern) }
	var problems []string
	want := func(level int, served bool) {
		if servesAt(level) != served {
			problems = append(problems, fmt.Sprintf("served at %d: %v, want %v", level, !served, served))
		}
	}
	if op.since > oldestLevel {
		want(op.since-1, false)
	}
	want(max(op.since, oldestLevel), true)
	if op.until > 0 {
		want(op.until-1, true)
		want(op.until, false)
	}
	if len(problems) > 0 {
		t.Errorf("client_operations.txt:%d: %s %s: the fake's gate disagrees with the list: %s", op.line, op.method, op.path, strings.Join(problems, "; "))
	}
}
