package report

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

const key = "abcdefghijklmnopqrstuvwxyz012345"

// testCatalog is a small catalog built as a literal.
func testCatalog() *catalog.Catalog {
	return &catalog.Catalog{Requirements: []catalog.Requirement{
		{ID: "CONV-01", Section: "Conventions", Text: "success envelope", Feature: "core"},
		{ID: "OP06-01", Section: "Endpoints / 6", Text: "fetch a message", Feature: "messages"},
		{ID: "OP07-01", Section: "Endpoints / 7", Text: "push registration", Feature: "push", MinLevel: 468},
		{ID: "OP21-01", Section: "Endpoints / 21", Text: "video call", Feature: "vcall", Pending: "spec-to-come"},
	}}
}

// spec builds a synthetic spec report.
func spec(text string, state types.SpecState, msg string, ids ...string) types.SpecReport {
	var labels []string
	if len(ids) > 0 {
		labels = harness.Req(ids...)
	}
	return types.SpecReport{
		ContainerHierarchyTexts:  []string{"suite"},
		ContainerHierarchyLabels: [][]string{{"area"}},
		LeafNodeText:             text,
		LeafNodeType:             types.NodeTypeIt,
		LeafNodeLabels:           labels,
		State:                    state,
		Failure:                  types.Failure{Message: msg},
	}
}

func TestCheckCoverage(t *testing.T) {
	passed := types.SpecStatePassed
	tests := []struct {
		name  string
		specs types.SpecReports
		want  []string // substrings of the error; nil = no error
	}{
		{"complete", types.SpecReports{
			spec("a", passed, "", "CONV-01", "OP06-01"), spec("b", passed, "", "OP07-01"),
		}, nil},
		{"unknown ID", types.SpecReports{
			spec("a", passed, "", "CONV-01", "OP06-01", "OP07-01"), spec("b", passed, "", "ERR-99"),
		}, []string{"unknown requirement ERR-99 named by: suite b"}},
		{"uncovered", types.SpecReports{spec("a", passed, "", "CONV-01")},
			[]string{"requirement OP06-01 has no spec", "requirement OP07-01 has no spec"}},
		{"pending with a spec", types.SpecReports{
			spec("a", passed, "", "CONV-01", "OP06-01", "OP07-01"), spec("v", passed, "", "OP21-01"),
		}, []string{"OP21-01 is marked pending", "suite v"}},
		{"PIt does not cover", types.SpecReports{
			spec("a", passed, "", "CONV-01", "OP06-01"), spec("p", types.SpecStatePending, "", "OP07-01", "OP21-01"),
		}, []string{"requirement OP07-01 has no spec"}},
		{"filtered-out specs still cover", types.SpecReports{
			spec("a", types.SpecStateSkipped, "", "CONV-01", "OP06-01", "OP07-01"),
		}, nil},
		{"suite nodes ignored", types.SpecReports{
			spec("a", passed, "", "CONV-01", "OP06-01", "OP07-01"),
			{LeafNodeType: types.NodeTypeBeforeSuite, LeafNodeLabels: []string{"req:ERR-98"}},
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckCoverage(testCatalog(), tt.specs)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			if ce := (*CoverageError)(nil); !errors.As(err, &ce) {
				t.Errorf("error is a %T, want *CoverageError", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestAggregate(t *testing.T) {
	pass := spec("p", types.SpecStatePassed, "")
	fail := spec("f", types.SpecStateFailed, "boom")
	panicked := spec("x", types.SpecStatePanicked, "panic")
	needs := spec("c", types.SpecStateSkipped, "needs capability clock")
	na := spec("n", types.SpecStateSkipped, "not applicable: target does not claim feature push")
	na2 := spec("n2", types.SpecStateSkipped, "not applicable: needs feature level 468, target has 400")
	filtered := spec("s", types.SpecStateSkipped, "")
	pit := spec("pit", types.SpecStatePending, "")
	custom := spec("k", types.SpecStateSkipped, "flaky on CI")

	tests := []struct {
		name    string
		pending string
		specs   []types.SpecReport
		status  Status
		reason  string
	}{
		{"no spec", "", nil, Skipped, "no spec of this run names the requirement"},
		{"passed", "", []types.SpecReport{pass, pass}, Passed, ""},
		{"one failed", "", []types.SpecReport{pass, fail}, Failed, "1 of 2 specs failed"},
		{"panic is a failure", "", []types.SpecReport{panicked}, Failed, "1 of 1 specs failed"},
		{"failed beats skipped", "", []types.SpecReport{needs, fail}, Failed, "1 of 2 specs failed"},
		{"passed with a skip is partial", "", []types.SpecReport{pass, needs}, Partial, "1 of 2 specs not run: needs capability clock"},
		{"passed with a filtered spec is partial", "", []types.SpecReport{filtered, pass}, Partial, "1 of 2 specs not run: not run (filtered out, or the suite stopped early)"},
		{"passed with n/a", "", []types.SpecReport{na, pass}, Passed, "1 of 2 specs not applicable: not applicable: target does not claim feature push"},
		{"all not applicable", "", []types.SpecReport{na, na2, na},
			NotApplicable, "not applicable: target does not claim feature push; not applicable: needs feature level 468, target has 400"},
		{"capability missing", "", []types.SpecReport{needs}, Skipped, "needs capability clock"},
		{"n/a and capability", "", []types.SpecReport{na, needs}, Skipped, "not applicable: target does not claim feature push; needs capability clock"},
		{"filtered out", "", []types.SpecReport{filtered}, Skipped, "not run (filtered out, or the suite stopped early)"},
		{"PIt", "", []types.SpecReport{pit}, Skipped, "spec is marked pending"},
		{"custom skip", "", []types.SpecReport{custom}, Skipped, "flaky on CI"},
		{"pending in catalog", "spec-to-come", nil, Pending, "spec not written yet (spec-to-come)"},
		{"pending wins over specs", "spec-to-come", []types.SpecReport{fail}, Pending, "spec not written yet (spec-to-come)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := aggregate(catalog.Requirement{ID: "CONV-01", Pending: tt.pending}, tt.specs)
			if got.Status != tt.status || got.Reason != tt.reason {
				t.Errorf("status %s %q, want %s %q", got.Status, got.Reason, tt.status, tt.reason)
			}
			if len(got.Specs) != len(tt.specs) {
				t.Errorf("specs = %v", got.Specs)
			}
			if tt.status == Partial && (len(got.NotRun) != 1 || got.NotRun[0] == "p") {
				t.Errorf("not run = %v, want the one spec that did not run", got.NotRun)
			}
		})
	}
}

// sampleReport is a run with every kind of outcome.
func sampleReport() types.Report {
	failed := spec("fetches", types.SpecStateFailed, `expected "success", body {"api_key": "`+key+`"}`, "OP06-01", "CONV-01")
	failed.CapturedGinkgoWriterOutput = "--> GET http://x/api/v1/messages/1\n    {\"api_key\":\"" + key + "\"}\n"
	// Ginkgo names files by the path they were built from, in messages and timelines too.
	failed.Failure.Location = types.CodeLocation{FileName: repoRoot + "specs/op06.go", LineNumber: 42}
	failed.Failure.Message += "\nIn [It] at: " + repoRoot + "specs/op06.go:42"
	failed.Failure.ForwardedPanic = "at " + repoRoot + "harness/envelope.go:78"
	failed.ReportEntries = types.ReportEntries{{Name: "http status", Value: types.WrapEntryValue("GET /api/v1/messages/1: HTTP 200")}}
	return types.Report{
		SuiteDescription: "chatconform",
		RunTime:          1500 * time.Millisecond,
		SpecReports: types.SpecReports{
			spec("envelope", types.SpecStatePassed, "", "CONV-01"),
			failed,
			spec("push", types.SpecStateSkipped, "not applicable: target does not claim feature push", "OP07-01"),
			spec("untagged failure", types.SpecStateFailed, "oops"),
			spec("untagged pass", types.SpecStatePassed, ""),
			{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStateFailed, Failure: types.Failure{Message: "setup broke"}},
			{LeafNodeType: types.NodeTypeAfterSuite, State: types.SpecStatePassed},
		},
	}
}

func sampleTarget() *harness.Target {
	return &harness.Target{
		URL: "http://x", FeatureLevel: 500, ServerFeatureLevel: 500,
		Features: map[string]bool{"jwt": true}, Capabilities: map[string]bool{"reset": true, "clock": true},
		CapabilitySource: "discovered",
		Config: harness.Config{URL: "http://x", Owner: harness.Credentials{Email: "o@x", APIKey: key},
			RequestTimeout: time.Second, ReportDir: "r"},
	}
}

func TestBuild(t *testing.T) {
	c := Build(testCatalog(), sampleReport(), sampleTarget())

	if c.APIVersion != Version || c.Kind != Kind || c.Suite.RunTime != "1.5s" {
		t.Errorf("header = %s %s %s", c.APIVersion, c.Kind, c.Suite.RunTime)
	}
	want := Counts{Requirements: 4, Failed: 2, NotApplicable: 1, Pending: 1, Covered: 3,
		Specs: SpecCounts{Total: 5, Passed: 2, Failed: 2, Skipped: 1}}
	if c.Counts != want {
		t.Errorf("counts = %+v\nwant     %+v", c.Counts, want)
	}
	var ids []string
	for _, r := range c.Requirements {
		ids = append(ids, r.ID+"="+string(r.Status))
	}
	if got := strings.Join(ids, " "); got != "CONV-01=failed OP06-01=failed OP07-01=not-applicable OP21-01=pending" {
		t.Errorf("statuses = %s", got)
	}
	f := c.Requirements[1].Failures
	if len(f) != 1 || f[0].Spec != "suite fetches" || f[0].Location != "specs/op06.go:42" ||
		!strings.Contains(f[0].Output, "--> GET http://x/api/v1/messages/1") ||
		!reflect.DeepEqual(f[0].Notes, []string{"http status: GET /api/v1/messages/1: HTTP 200"}) {
		t.Errorf("failure = %+v", f)
	}
	if len(c.OtherFailures) != 2 || c.OtherFailures[0].Message != "oops" || c.OtherFailures[1].Message != "setup broke" {
		t.Errorf("other failures = %+v", c.OtherFailures)
	}
	if c.Target.Config.Owner.APIKey != "****" || !reflect.DeepEqual(c.Target.Capabilities, []string{"clock", "reset"}) {
		t.Errorf("target = %+v", c.Target)
	}
	b, _ := json.Marshal(c)
	if strings.Contains(string(b), key) {
		t.Errorf("report holds the key")
	}
}

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "reports")
	c := Build(testCatalog(), sampleReport(), sampleTarget())

	if err := Write(c, dir); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var back Conformance
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.Counts != c.Counts || len(back.Requirements) != 4 || back.Target.Config.RequestTimeout != time.Second {
		t.Errorf("JSON round trip lost data: %+v", back.Counts)
	}

	html, _ := os.ReadFile(filepath.Join(dir, HTMLFile))
	page := string(html)
	for _, w := range []string{"<!DOCTYPE html>", "http://x", "setup broke", "HTTP exchange", "****", "not applicable"} {
		if !strings.Contains(page, w) {
			t.Errorf("page lacks %q", w)
		}
	}
	if strings.Contains(page, key) {
		t.Error("page holds the key")
	}
	// Rows carry their operation's number, the value #op=6 in the address selects; and the page
	// carries no path of the directory the runner was built in.
	if !strings.Contains(page, `data-op="6"`) || !strings.Contains(page, "specs/op06.go:42") {
		t.Errorf("page lacks data-op=\"6\" or the failure's location")
	}
	for name, text := range map[string]string{"page": page, "JSON report": string(raw)} {
		if strings.Contains(text, repoRoot) {
			t.Errorf("the %s holds the build directory %s", name, repoRoot)
		}
	}
	if strings.Contains(page, `body {"api_key"`) {
		t.Error("page does not escape HTML-special text")
	}
	// Failures first, passes (none here) and pending last.
	if iFail, iPending := strings.Index(page, `id="OP06-01"`), strings.Index(page, `id="OP21-01"`); iFail > iPending {
		t.Error("failed requirement listed after pending one")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("report dir holds %d files, want 2 (no temporaries)", len(entries))
	}
}

func TestSummary(t *testing.T) {
	s := Summary(Build(testCatalog(), sampleReport(), sampleTarget()))
	for _, w := range []string{
		"4 requirements: 0 passed, 0 partial, 2 failed, 0 blocked, 0 skipped, 1 not applicable, 1 pending",
		"3 requirements covered by specs, 1 pending",
		"specs: 5: 2 passed, 2 failed, 1 skipped, 0 pending",
		"failures outside any requirement: 2",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("summary lacks %q:\n%s", w, s)
		}
	}
	// Four lines of totals (the target's clock is in step with the runner's, and not named),
	// then one per part of the document.
	parts := map[string]bool{}
	for _, r := range testCatalog().Requirements {
		part, _, _ := strings.Cut(r.Section, " / ")
		parts[part] = true
	}
	// And one line per profile, under its heading; before all, the findings (two lines each,
	// under a heading), and what would run more (one line per remedy, under a heading).
	remedies := 1
	want := 5 + len(parts) + 1 + len(extendedProfiles) + 1 + 1 + 2*3 + 1 + remedies
	if n := strings.Count(s, "\n"); n != want {
		t.Errorf("summary has %d lines, want %d:\n%s", n, want, s)
	}
}

// TestCatalogIDsAreReqIDs keeps harness.Req's ID check in step with the
// catalog's: every catalog ID must be usable as a label.
func TestCatalogIDsAreReqIDs(t *testing.T) {
	cat, err := catalog.Load()
	if err != nil {
		t.Fatalf("loading the catalog: %v", err)
	}
	for _, id := range cat.IDs() {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("catalog ID %s rejected by harness.Req: %v", id, r)
				}
			}()
			harness.Req(id)
		}()
	}
}

func TestBuildWithoutTarget(t *testing.T) {
	r := types.Report{SpecReports: types.SpecReports{
		{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateFailed,
			Failure: types.Failure{Message: "connecting to the target: refused"}},
		spec("envelope", types.SpecStateSkipped, "", "CONV-01"),
	}}
	c := Build(testCatalog(), r, nil)
	if c.Target.URL != "" || len(c.OtherFailures) != 1 || c.Requirements[0].Status != Skipped {
		t.Errorf("report = %+v", c)
	}
	if err := Write(c, t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestWriteJUnit: one case per spec, classed by its outermost Describe, with the captured
// exchanges kept only for the spec that failed.
func TestWriteJUnit(t *testing.T) {
	passed := spec("answers", types.SpecStatePassed, "")
	passed.ContainerHierarchyTexts = []string{"Operation 6: fetch a message"}
	passed.CapturedGinkgoWriterOutput = "--> GET passed-exchange"
	failed := spec("refuses", types.SpecStateFailed, "boom\nIn [It] at: "+repoRoot+"specs/delete_topic.go:9")
	failed.ContainerHierarchyTexts = []string{"Operation 8: delete a topic", "inner"}
	failed.CapturedGinkgoWriterOutput = "--> POST failed-exchange"
	failed.Failure.Location = types.CodeLocation{FileName: repoRoot + "specs/delete_topic.go", LineNumber: 9}
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(types.Report{SuiteDescription: "suite", SuitePath: repoRoot + "specs", SpecReports: types.SpecReports{passed, failed}}, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := string(data)
	for _, want := range []string{`classname="Operation 6: fetch a message"`, `classname="Operation 8: delete a topic"`, "failed-exchange"} {
		if !strings.Contains(out, want) {
			t.Errorf("junit.xml lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "passed-exchange") {
		t.Errorf("junit.xml keeps a passing spec's exchanges:\n%s", out)
	}
	if strings.Contains(out, repoRoot) || !strings.Contains(out, "specs/delete_topic.go:9") {
		t.Errorf("junit.xml holds the build directory %s, or lacks the repository path:\n%s", repoRoot, out)
	}
}

// TestJUnitTotalsAndBlocked: junit.xml's totals are counted from its cases as the console
// counts the specs (a suite node that went well is no case), and a spec failed by another
// requirement's finding is a failure of type blocked.
func TestJUnitTotalsAndBlocked(t *testing.T) {
	suiteNode := types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStatePassed}
	noMsg := harness.Mismatch{Field: "msg", Check: "present", Requirement: "CONV-01"}
	root := mismatched("envelope", "harness/envelope.go", noMsg, "CONV-01")
	blocked := mismatched("fetch", "harness/envelope.go", noMsg, "OP06-01")
	skipped := spec("push", types.SpecStateSkipped, "not applicable: x", "OP07-01")
	pending := spec("later", types.SpecStatePending, "", "OP21-01")
	path := filepath.Join(t.TempDir(), "junit.xml")
	r := types.Report{SuiteDescription: "suite", SpecReports: types.SpecReports{suiteNode, root, blocked, skipped, pending, spec("ok", types.SpecStatePassed, "", "CONV-01")}}
	if err := WriteJUnit(r, path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	s := suites.TestSuites[0]
	if s.Tests != 5 || s.Failures != 2 || s.Skipped != 1 || s.Disabled != 1 || suites.Tests != 5 || suites.Failures != 2 || len(s.TestCases) != 5 {
		t.Errorf("totals tests %d (all %d), failures %d (all %d), skipped %d, disabled %d, %d cases: want 5, 2, 1, 1 and 5 cases",
			s.Tests, suites.Tests, s.Failures, suites.Failures, s.Skipped, s.Disabled, len(s.TestCases))
	}
	var kinds []string
	for _, c := range s.TestCases {
		if c.Failure != nil {
			kinds = append(kinds, c.Failure.Type)
			if c.Failure.Type == "blocked" && !strings.HasPrefix(c.Failure.Message, "blocked by CONV-01 (finding F") {
				t.Errorf("blocked case's message %q", c.Failure.Message)
			}
		}
	}
	if strings.Join(kinds, ",") != "failed,blocked" {
		t.Errorf("failure types %q, want the root's failed and the other's blocked", kinds)
	}
	if strings.HasPrefix(s.Package, "/") {
		t.Errorf("package %q is an absolute path", s.Package)
	}
}

// TestProfiles: a failure fails only its profile; what was not fully checked makes a profile
// partial; a feature nobody claims is not applicable; core holds every other feature.
func TestProfiles(t *testing.T) {
	reqs := []Requirement{
		{ID: "CONV-01", Feature: "core", Status: Passed},
		{ID: "MSG-01", Feature: "messages", Status: Passed},
		{ID: "OP07-01", Feature: "push", Status: Failed},
		{ID: "OP07-02", Feature: "push", Status: Passed},
		{ID: "OP09-01", Feature: "jwt", Status: NotApplicable},
		{ID: "OP20-01", Feature: "bot_storage", Status: Partial},
		{ID: "OP15-01", Feature: "reminders", Status: Passed},
	}
	got := map[string]string{}
	for _, p := range profiles(reqs) {
		got[p.Name] = p.Result
		if p.Name == "core" && !reflect.DeepEqual(p.Features, []string{"core", "messages"}) {
			t.Errorf("core features %v", p.Features)
		}
	}
	want := map[string]string{"core": "success", "push notifications (E2EE device registration)": "failure",
		"video calls": "not-applicable", "JWT authentication": "not-applicable", "bot storage": "partial", "message reminders": "success"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("profiles %v, want %v", got, want)
	}
}

// TestSchemaRefusesBrokenReports: the published schema holds a report to what readers rely on.
func TestSchemaRefusesBrokenReports(t *testing.T) {
	good, err := json.Marshal(Build(testCatalog(), sampleReport(), sampleTarget()))
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(good); err != nil {
		t.Fatalf("a built report fails its schema: %v", err)
	}
	for name, change := range map[string]func(m map[string]any){
		"an unknown status": func(m map[string]any) { m["requirements"].([]any)[0].(map[string]any)["status"] = "fine" },
		"a key shown in part": func(m map[string]any) {
			m["target"].(map[string]any)["config"].(map[string]any)["owner"].(map[string]any)["api_key"] = "****2345"
		},
		"a failed requirement without its failures": func(m map[string]any) {
			for _, r := range m["requirements"].([]any) {
				if r := r.(map[string]any); r["status"] == "failed" {
					delete(r, "failures")
				}
			}
		},
		"no counts": func(m map[string]any) { delete(m, "counts") },
		"a finding of no spec": func(m map[string]any) {
			f := m["findings"].([]any)[0].(map[string]any)
			f["count"], f["specs"] = 0, []any{}
		},
		"a finding without an ID": func(m map[string]any) { delete(m["findings"].([]any)[0].(map[string]any), "id") },
		"an exploration without its seed": func(m map[string]any) {
			m["exploration"] = map[string]any{"sequences": 2, "steps": 60, "steps_per_sequence": 30, "seconds": 1.5, "findings": 0}
		},
		"a failure naming a malformed finding": func(m map[string]any) {
			m["other_failures"].([]any)[0].(map[string]any)["finding"] = "F-1"
		},
	} {
		var m map[string]any
		_ = json.Unmarshal(good, &m)
		change(m)
		bad, _ := json.Marshal(m)
		if Validate(bad) == nil {
			t.Errorf("the schema accepts a report with %s", name)
		}
	}
}

// TestImplementationInReports: what the implementer declares is in both reports.
func TestImplementationInReports(t *testing.T) {
	target := sampleTarget()
	target.Config.Implementation = harness.Implementation{Name: "Acme Chat", Version: "4.2", Contact: "qa@acme.test"}
	c := Build(testCatalog(), sampleReport(), target)
	dir := t.TempDir()
	if err := Write(c, dir); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{JSONFile: `"name": "Acme Chat"`, HTMLFile: "Implementation <b>Acme Chat</b> 4.2"} {
		data, _ := os.ReadFile(filepath.Join(dir, file))
		if !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %q", file, want)
		}
	}
}
