package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
)

// missingMsg is httpexpect's message when a success reply lacks msg, as a spec failing through
// harness.Success gets it: the reply it dumps differs from spec to spec.
func missingMsg(method, reply string) string {
	return "expected: map contains key\n\nassertion:\n  Request(\"" + method + "\").Expect().JSON().Object().Value(\"msg\")\n\n" +
		"expected key:\n  \"msg\"\n\nactual value:\n  {\n    \"id\": 7,\n    \"reply\": \"" + reply + "\",\n    \"result\": \"success\"\n  }"
}

// stackAt is a pruned Ginkgo stack whose innermost frame outside httpexpect is file:line.
func stackAt(file string, line int) string {
	return "github.com/gavv/httpexpect/v2.(*Object).Value(...)\n\t/go/pkg/mod/github.com/gavv/httpexpect/v2/object.go:12 +0x1\n" +
		fmt.Sprintf("github.com/chatconform/chatconform/harness.Success(...)\n\t/src/chatconform/%s:%d +0x2\n", file, line) +
		"github.com/chatconform/chatconform/specs.init.func1()\n\t/src/chatconform/specs/x.go:9 +0x3\n"
}

// failedAt is a failed spec whose assertion at file:line failed with msg, the spec's own line
// being specLine.
func failedAt(text, msg, file string, line, specLine int, ids ...string) types.SpecReport {
	s := spec(text, types.SpecStateFailed, msg, ids...)
	s.Failure.Location = types.CodeLocation{FileName: "/src/chatconform/specs/" + text + ".go", LineNumber: specLine, FullStackTrace: stackAt(file, line)}
	return s
}

// TestFindingOf: specs whose same assertion fails the same way share a finding whatever the
// values it dumped, the method, the ids and names, and their own lines; another assertion,
// another one-line value or another state is another finding.
func TestFindingOf(t *testing.T) {
	base := failedAt("a", missingMsg("GET", "one"), "harness/envelope.go", 21, 10)
	found := findingOf(base)
	baseID, site, shape := found.id, found.site, found.shape
	if site != "harness/envelope.go:21" {
		t.Errorf("site %q, want the helper's line harness/envelope.go:21", site)
	}
	if strings.Contains(shape, "reply") || !strings.Contains(shape, `Value("msg")`) {
		t.Errorf("shape keeps the dumped reply or loses the assertion:\n%s", shape)
	}
	panicked := failedAt("h", missingMsg("GET", "one"), "harness/envelope.go", 21, 10)
	panicked.State = types.SpecStatePanicked
	for _, tc := range []struct {
		name string
		spec types.SpecReport
		same bool
	}{
		{"another reply, method and spec line", failedAt("b", missingMsg("POST", "two, longer"), "harness/envelope.go", 21, 99), true},
		{"another assertion site", failedAt("d", missingMsg("GET", "one"), "harness/envelope.go", 40, 10), false},
		{"another expected key", failedAt("e", strings.ReplaceAll(missingMsg("GET", "one"), `"msg"`, `"code"`), "harness/envelope.go", 21, 10), false},
		{"another one-line value", failedAt("f", "Expected\n    <string>: success\nto equal\n    <string>: error", "specs/x.go", 5, 5), false},
		{"another state", panicked, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := findingOf(tc.spec).id
			if (id == baseID) != tc.same {
				t.Errorf("finding %s, the base's %s: want same=%v", id, baseID, tc.same)
			}
		})
	}
	// The varying tokens themselves: ids and run names become N, so the same message about
	// other objects is one finding.
	a := findingOf(failedAt("g1", "no user 12 (member-ab12cd-1-2@x.test) in /api/v1/users/12", "specs/y.go", 3, 3)).id
	b := findingOf(failedAt("g2", "no user 345 (member-zz99yy-2-7@x.test) in /api/v1/users/345", "specs/y.go", 3, 3)).id
	if a != b {
		t.Errorf("the same message about other ids and names gives findings %s and %s", a, b)
	}
	// Unique names whose run id and counter hold no digit.
	u := findingOf(failedAt("u1", `Expected ["before-abcdef-1-mk", "after-abcdef-1-ml"] to equal ["after-abcdef-1-ml", "before-abcdef-1-mk"]`, "specs/t.go", 78, 78)).id
	v := findingOf(failedAt("u2", `Expected ["before-ghijkl-2-mn", "after-ghijkl-2-mo"] to equal ["after-ghijkl-2-mo", "before-ghijkl-2-mn"]`, "specs/t.go", 78, 78)).id
	if u != v {
		t.Errorf("the same message about other unique names gives findings %s and %s", u, v)
	}
	x := findingOf(failedAt("g3", "Expected\n    <string>: success\nto equal\n    <string>: error", "specs/x.go", 5, 5)).id
	y := findingOf(failedAt("g4", "Expected\n    <string>: failure\nto equal\n    <string>: error", "specs/x.go", 5, 5)).id
	if x == y {
		t.Error("two different one-line values give one finding")
	}
}

// systemic is a run in which every spec but one fails the same way, through one helper, with
// a long timeline each, as against a server that drops msg from success replies.
func systemic(n int) types.Report {
	var specs types.SpecReports
	timeline := strings.Repeat("--> GET http://x/api/v1/users/me\n<-- 200 OK\n    {\"result\":\"success\",\"pad\":\""+strings.Repeat("x", 400)+"\"}\n\n", 50)
	for i := range n {
		s := failedAt(fmt.Sprintf("spec %d", i), missingMsg([]string{"GET", "POST", "PATCH"}[i%3], fmt.Sprint(i)), "harness/envelope.go", 21, i, fmt.Sprintf("OP%02d-%02d", i%21+1, i%7+1))
		s.ContainerHierarchyTexts = []string{fmt.Sprintf("Operation %d", i%21+1)}
		s.CapturedGinkgoWriterOutput = timeline + "--> DELETE http://x/api/v1/streams/9\n<-- 200 OK\n"
		s.Failure.TimelineLocation = types.TimelineLocation{Offset: len(timeline) - 1, Time: time.Now()}
		s.ReportEntries = types.ReportEntries{{Name: "http status", Value: types.WrapEntryValue("GET /api/v1/users/me: HTTP 200")}}
		specs = append(specs, s)
	}
	passed := spec("passes", types.SpecStatePassed, "", "CONV-01")
	passed.ReportEntries = types.ReportEntries{{Name: "http status", Value: types.WrapEntryValue("GET /api/v1/users/me: HTTP 200 (a note of a passing spec)")}}
	return types.Report{SuiteDescription: "suite", SpecReports: append(specs, passed)}
}

// TestJUnitBounded: 500 specs failing one way with 25 KB of exchanges each stay under 2 MB
// (Ginkgo's own writer gives over 12 MB): the first case of the finding keeps its timeline, the
// others its ID and the failing request; a passing spec keeps no notes.
func TestJUnitBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(systemic(500), path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := string(data)
	if len(data) > 2<<20 {
		t.Errorf("junit.xml is %d bytes, want under 2 MB", len(data))
	}
	t.Logf("junit.xml of 500 specs failing one way: %d bytes", len(data))
	if n := strings.Count(out, "&lt;-- 200 OK"); n < 50 {
		t.Errorf("the finding's first case lost its timeline (%d responses in the file)", n)
	}
	id := findingOf(systemic(1).SpecReports[0]).id
	if n := strings.Count(out, "finding "+id); n != 500 {
		t.Errorf("%d cases name the finding %s, want 500", n, id)
	}
	if strings.Contains(out, "a note of a passing spec") {
		t.Error("a passing spec keeps its notes")
	}
	if n := strings.Count(out, "the failing request:&#xA;--&gt; GET http://x/api/v1/users/me"); n != 499 {
		t.Errorf("%d repeated cases show their failing request, want 499", n)
	}
	if strings.Contains(out, "the failing request:&#xA;--&gt; DELETE") {
		t.Error("a repeated case shows the cleanup's request as the failing one")
	}
}

// TestFindingsInReport: the report's findings come first in the summary, with the counts of
// specs and requirements, every failure names its finding, and the failing exchange is the
// last before the failure, not the cleanup's DELETE after it.
func TestFindingsInReport(t *testing.T) {
	cat := testCatalog()
	r := systemic(6)
	for i := range r.SpecReports[:6] {
		r.SpecReports[i].LeafNodeLabels = []string{"req:OP06-01"}
	}
	c := Build(cat, r, sampleTarget())
	if len(c.Findings) != 1 {
		t.Fatalf("%d findings, want 1: %+v", len(c.Findings), c.Findings)
	}
	f := c.Findings[0]
	if f.Count != 6 || len(f.Specs) != 6 || strings.Join(f.Requirements, ",") != "OP06-01" || strings.Join(f.Sole, ",") != "OP06-01" || f.Site != "harness/envelope.go:21" {
		t.Errorf("finding = %+v", f)
	}
	for _, fail := range c.Requirements[1].Failures {
		if fail.Finding != f.ID {
			t.Errorf("failure of %s names finding %q, want %s", fail.Spec, fail.Finding, f.ID)
		}
		if !strings.HasPrefix(fail.FailingRequest, "--> GET http://x/api/v1/users/me") || strings.Contains(fail.FailingRequest, "DELETE") {
			t.Errorf("failing request of %s: %q", fail.Spec, fail.FailingRequest)
		}
	}
	s := Summary(c)
	if !strings.HasPrefix(s, "chatconform: findings (distinct failures): 1, in 6 failed specs") || !strings.Contains(s, "  "+f.ID+"  "+f.Title+"\n            6 specs, 1 requirement failed (1 by this alone)  at harness/envelope.go:21") {
		t.Errorf("summary does not start with the finding:\n%s", s)
	}
}

// TestFailingExchangeIndex: for a failure no assertion noted on an exchange, the structured
// exchange it was about is the last one sent before it.
func TestFailingExchangeIndex(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC)
	s := spec("x", types.SpecStateFailed, "boom")
	s.Failure.TimelineLocation.Time = at
	ex := func(method string, sec int) harness.Exchange {
		return harness.Exchange{Method: method, Start: at.Add(time.Duration(sec) * time.Second)}
	}
	m := failingExchange(s, []harness.Exchange{ex("POST", -5), ex("GET", -1), ex("DELETE", 2)})
	if m.index == nil || *m.index != 1 || m.by != ByOrder {
		t.Errorf("failing exchange %v by %q, want 1 (the GET before the failure) by order", m.index, m.by)
	}
	s.Failure.TimelineLocation.Time = time.Time{}
	if m := failingExchange(s, []harness.Exchange{ex("GET", 0)}); m.index != nil {
		t.Errorf("a failure without a time gives exchange %d", *m.index)
	}
}

// TestConsole: the first failed spec of a finding is printed as Ginkgo reports it, after a
// line that names the finding; the next ones are one line each in its place; a spec that
// passed queues nothing.
func TestConsole(t *testing.T) {
	c := NewConsole()
	r := systemic(3)
	c.Add(r.SpecReports[3]) // passed
	for _, s := range r.SpecReports[:3] {
		c.Add(s)
	}
	first, ok := c.Next()
	if !ok || first.Replace || !strings.Contains(first.Line, "first seen here") {
		t.Errorf("first entry %+v", first)
	}
	for range 2 {
		e, ok := c.Next()
		if !ok || !e.Replace || strings.Contains(e.Line, "\n") || !strings.HasPrefix(e.Line, "✗ FAILED Operation ") || !strings.Contains(e.Line, ", req:OP0") {
			t.Errorf("repeat entry %+v", e)
		}
	}
	if e, ok := c.Next(); ok {
		t.Errorf("an entry too many: %+v", e)
	}
	if c.Findings() != 1 {
		t.Errorf("%d findings, want 1", c.Findings())
	}
}

// TestRemedies: the remedy a skip reason names, and the summary's count of requirements each
// would run.
func TestRemedies(t *testing.T) {
	for _, tc := range []struct{ reason, want string }{
		{"needs setup: not known whether the owner holds can_create_users: declare it with -chatconform.owner-permissions (or \"owner.permissions\" in the config file)", "set `-chatconform.owner-permissions`"},
		{"not applicable: target does not claim feature push", "claim feature push (`-chatconform.features`)"},
		{"needs capability clock", "run against the reference fake, whose control API offers clock (`-chatconform.capabilities` lists what a target offers)"},
		{"needs capability config (or the JWT key in the setting -chatconform.jwt-key)", "set `-chatconform.jwt-key`"},
		// One spelling, this program's, whichever the reason used.
		{"needs setup: the document does not give the many-subscribers threshold; set --wildcard-mention-threshold", "set `-chatconform.wildcard-mention-threshold`"},
		{"needs setup: not a setting --no-such-setting", ""},
		{"not applicable: needs feature level 468, target has 400", ""},
		{"not run (filtered out, or the suite stopped early)", ""},
	} {
		if got := remedyOf(tc.reason); got != tc.want {
			t.Errorf("remedyOf(%q) = %q, want %q", tc.reason, got, tc.want)
		}
	}
	perms := spec("p", types.SpecStateSkipped, "needs setup: declare it with -chatconform.owner-permissions", "OP06-01")
	push := spec("q", types.SpecStateSkipped, "not applicable: target does not claim feature push", "OP07-01")
	level := spec("r", types.SpecStateSkipped, "not applicable: needs feature level 468, target has 400", "CONV-01")
	c := Build(testCatalog(), types.Report{SpecReports: types.SpecReports{perms, push, level}}, sampleTarget())
	s := Summary(c)
	for _, want := range []string{"1 requirements skipped or partial, 2 not applicable; to run more:",
		"  set `-chatconform.owner-permissions` to run 1 of them", "  claim feature push (`-chatconform.features`) to run 1 of them"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}

// TestMarkFailing: the mark goes on the failing exchange, even with the cleanup's after it,
// and on nothing when the failing exchange is not known.
func TestMarkFailing(t *testing.T) {
	out := "--> POST /messages\n<-- 200\n--> GET /users/me/1/topics\n<-- 200\n--> DELETE /streams/1\n<-- 200\n"
	got := string(markFailing(out, "--> GET /users/me/1/topics\n<-- 200", nil))
	if !strings.Contains(got, `<mark class="failing" title="the request the failed assertion was about">--&gt; GET /users/me/1/topics`) {
		t.Errorf("the GET is not marked:\n%s", got)
	}
	if strings.Contains(got, "DELETE /streams/1\n&lt;-- 200\n</mark>") || strings.Count(got, "<mark") != 1 {
		t.Errorf("not one mark, on the GET:\n%s", got)
	}
	if got := string(markFailing(out, "", nil)); strings.Contains(got, "<mark") {
		t.Errorf("a mark without a failing exchange:\n%s", got)
	}
}

// mismatched is a failed spec whose assertion at site found m.
func mismatched(text, site string, m harness.Mismatch, ids ...string) types.SpecReport {
	s := spec(text, types.SpecStateFailed, "expected: …", ids...)
	s.Failure.Location = types.CodeLocation{FileName: repoRoot + site, LineNumber: 7}
	data, _ := json.Marshal(m)
	s.ReportEntries = types.ReportEntries{{Name: harness.MismatchEntry, Value: types.WrapEntryValue(string(data))}}
	return s
}

// TestRootCause: failures are one finding by what differs (the site counting only for a check
// of the spec's own), titled by the field and the values; a requirement failed only by a
// finding rooted in another failed requirement is blocked by it, counted apart.
func TestRootCause(t *testing.T) {
	noMsg := harness.Mismatch{Field: "msg", Check: "present", Requirement: "CONV-01"}
	code := func(actual, expected string) harness.Mismatch {
		return harness.Mismatch{Field: "code", Check: "equal", Actual: `"` + actual + `"`, Expected: `"` + expected + `"`}
	}
	wrongID := harness.Mismatch{Field: "id", Check: "equal", Actual: "12", Expected: "13"}
	passed := func(text string, ids ...string) types.SpecReport {
		return spec(text, types.SpecStatePassed, "", ids...)
	}
	for _, tc := range []struct {
		name     string
		specs    types.SpecReports
		statuses map[string]Status
		titles   []string // the findings' titles, most specs first
		blocked  int
	}{
		{"the envelope blocks the operation", types.SpecReports{
			mismatched("a", "harness/envelope.go", noMsg, "CONV-01"), mismatched("b", "harness/envelope.go", noMsg, "OP06-01"),
		}, map[string]Status{"CONV-01": Failed, "OP06-01": Blocked}, []string{"msg: missing (CONV-01)"}, 1},
		{"a root that did not fail blocks nothing", types.SpecReports{
			passed("a", "CONV-01"), mismatched("b", "harness/envelope.go", noMsg, "OP06-01"),
		}, map[string]Status{"CONV-01": Passed, "OP06-01": Failed}, []string{"msg: missing (CONV-01)"}, 0},
		{"a failure of its own besides", types.SpecReports{
			mismatched("a", "harness/envelope.go", noMsg, "CONV-01"), mismatched("b", "harness/envelope.go", noMsg, "OP06-01"),
			mismatched("c", "specs/op06.go", wrongID, "OP06-01"),
		}, map[string]Status{"CONV-01": Failed, "OP06-01": Failed}, []string{"msg: missing (CONV-01)", "id: 12, expected 13"}, 0},
		{"codes the document does not name, at two sites", types.SpecReports{
			mismatched("a", "harness/envelope.go", code("bad_request", "BAD_REQUEST"), "CONV-01"),
			mismatched("b", "specs/op06.go", code("unauthorized", "UNAUTHORIZED"), "OP06-01"),
		}, map[string]Status{"CONV-01": Failed, "OP06-01": Failed},
			[]string{`code: "bad_request", expected "BAD_REQUEST" (a code the document does not name)`}, 0},
		{"a documented code where another was due is the site's", types.SpecReports{
			mismatched("a", "harness/envelope.go", code("BAD_REQUEST", "UNAUTHORIZED"), "CONV-01"),
			mismatched("b", "specs/op06.go", code("BAD_REQUEST", "UNAUTHORIZED"), "OP06-01"),
		}, map[string]Status{"CONV-01": Failed, "OP06-01": Failed},
			[]string{`code: "BAD_REQUEST", expected "UNAUTHORIZED"`, `code: "BAD_REQUEST", expected "UNAUTHORIZED"`}, 0},
		{"a wrong number at two sites is two findings", types.SpecReports{
			mismatched("a", "specs/conv.go", wrongID, "CONV-01"), mismatched("b", "specs/op06.go", harness.Mismatch{Field: "id", Check: "equal", Actual: "4", Expected: "5"}, "OP06-01"),
		}, map[string]Status{"CONV-01": Failed, "OP06-01": Failed}, []string{"id: 12, expected 13", "id: 4, expected 5"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Build(testCatalog(), types.Report{SpecReports: tc.specs}, sampleTarget())
			for id, want := range tc.statuses {
				for _, r := range c.Requirements {
					if r.ID == id && r.Status != want {
						t.Errorf("%s %s (%s), want %s", id, r.Status, r.Reason, want)
					}
				}
			}
			var titles []string
			for _, f := range c.Findings {
				titles = append(titles, f.Title)
			}
			if strings.Join(titles, " | ") != strings.Join(tc.titles, " | ") {
				t.Errorf("findings %q, want %q", titles, tc.titles)
			}
			if c.Counts.Blocked != tc.blocked {
				t.Errorf("%d blocked, want %d", c.Counts.Blocked, tc.blocked)
			}
			for _, r := range c.Requirements {
				// The location is the file's path in the repository, not where the runner was built.
				for _, f := range r.Failures {
					if strings.HasPrefix(f.Location, "/") || !strings.HasSuffix(f.Location, ".go:7") {
						t.Errorf("location %q, want a path in the repository", f.Location)
					}
				}
			}
			if _, err := json.Marshal(c); err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(c)
			if err := Validate(data); err != nil {
				t.Errorf("the report does not match its schema: %v", err)
			}
		})
	}
}
