package explore_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/explore"
	"github.com/chatconform/chatconform/harness/report"
)

// isMeFinding is a difference as the explorer reports one against a server that never marks
// /me messages: the field, both sides' values, the requirements of its row and the steps.
func isMeFinding() explore.Finding {
	return explore.Finding{ID: "X01", Seed: 5, Requirements: []string{"MSG-20", "MSG-21"},
		Difference: explore.Difference{Reply: "get_messages", Path: "messages[].is_me_message", Target: "false-on-target",
			Reference: "true-on-reference", Requirements: []string{"MSG-20", "MSG-21"}, Actor: "owner"},
		Steps: []explore.Step{
			{Op: "create_channel", Actor: "administrator", Method: "POST", Path: "/users/me/subscriptions", Params: map[string]string{"subscriptions": `[{"name":"{name:c0}"}]`}},
			{Op: "send_message", Actor: "owner", Method: "POST", Path: "/messages", Params: map[string]string{"content": "/me waves"}},
		},
		Requests: []explore.Exchange{{Actor: "owner", Method: "POST", URL: "/api/v1/messages", Body: "content=%2Fme+waves", Status: 200, Reply: `{"result":"success"}`}},
		Target:   []explore.Exchange{{Actor: "owner", Method: "GET", URL: "/api/v1/messages?anchor=newest", Status: 200, Reply: `{"messages":[{"is_me_message":false}]}`}},
	}
}

// TestFindingsInTheSuitesReports: explore writes the suite's formats (conformance.json valid
// against its schema, the HTML page, junit.xml, the console's lines) under the profile
// explore: a finding is a failed check that names its requirements, the field with both
// values, the steps and the replay; a run without one is a passing report of what it did.
func TestFindingsInTheSuitesReports(t *testing.T) {
	tab := table(t)
	for _, c := range []struct {
		name       string
		res        explore.Result
		result     string   // the profile's
		failed     []string // the requirements failed
		passed     []string // and passed
		everywhere []string // what every format says
	}{
		{
			name: "a finding",
			res: explore.Result{Seed: 5, Sequences: 4, Steps: 212, Seconds: 9, Findings: []explore.Finding{isMeFinding()},
				Checked: []string{"CONV-05", "MSG-20", "MSG-21"}},
			result: "failure", failed: []string{"MSG-20", "MSG-21"}, passed: []string{"CONV-05"},
			everywhere: []string{"MSG-20", "MSG-21", "messages[].is_me_message", "false-on-target", "true-on-reference",
				"send_message", filepath.Join("explore", "X01.json"), filepath.Join("explore", "X01.sh")},
		},
		{
			name:   "no finding",
			res:    explore.Result{Seed: 7, Sequences: 3, Steps: 90, Seconds: 4, Checked: []string{"CONV-05", "MSG-20"}},
			result: "success", passed: []string{"CONV-05", "MSG-20"},
			everywhere: []string{"3 sequence", "90 steps", "seed 7"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A target as described, not connected: the reports only describe it.
			target := &harness.Target{URL: "http://chat.example.test", FeatureLevel: 400}
			formats, got := writeReports(t, target, explore.Options{Seed: c.res.Seed, Steps: 80}, c.res, tab)
			for name, text := range formats {
				for _, want := range c.everywhere {
					if !strings.Contains(text, want) {
						t.Errorf("%s does not say %q", name, want)
					}
				}
			}
			profileMustBe(t, got, c.result)
			x := got.Exploration
			if x == nil || x.Seed != c.res.Seed || x.Sequences != c.res.Sequences || x.Steps != c.res.Steps || x.Findings != len(c.res.Findings) {
				t.Errorf("exploration %+v, want the run's seed, sequences, steps and findings (%+v)", x, c.res)
			} else if slices.Contains(x.Unreached, "CONV-05") || len(x.Unreached) == 0 {
				t.Errorf("unreached %v: want the field table's requirements the run did not compare", x.Unreached)
			}
			status := map[report.Status][]string{}
			for _, r := range got.Requirements {
				status[r.Status] = append(status[r.Status], r.ID)
			}
			if !slices.Equal(status[report.Failed], c.failed) || !slices.Equal(status[report.Passed], c.passed) || len(got.Requirements) != len(c.failed)+len(c.passed) {
				t.Errorf("requirements by status %v, want failed %v and passed %v only", status, c.failed, c.passed)
			}
			if len(got.Findings) != len(c.res.Findings) {
				t.Fatalf("%d findings in conformance.json, want %d", len(got.Findings), len(c.res.Findings))
			}
			for _, f := range got.Findings {
				if f.Field != "get_messages messages[].is_me_message" || f.Actual != "false-on-target" || f.Expected != "true-on-reference" {
					t.Errorf("finding %+v: want the field with the target's and the reference's values", f)
				}
			}

			var suites reporters.JUnitTestSuites
			if err := xml.Unmarshal([]byte(formats[report.JUnitFile]), &suites); err != nil {
				t.Fatal(err)
			}
			if suites.Tests != len(c.res.Findings)+len(c.passed) || suites.Failures != len(c.res.Findings) {
				t.Errorf("junit.xml: %d tests, %d failures; want a case per finding and per requirement passed", suites.Tests, suites.Failures)
			}
		})
	}
}

// writeReports writes a run's replay files and reports as the runner does, and returns the
// text of each format (the console's too) and conformance.json, which must match its schema.
func writeReports(t *testing.T, target *harness.Target, opts explore.Options, res explore.Result, tab *explore.Table) (map[string]string, report.Conformance) {
	t.Helper()
	dir := t.TempDir()
	replays, err := explore.Write(dir, target, opts, res)
	if err != nil {
		t.Fatal(err)
	}
	conf, err := explore.WriteReports(dir, target, opts, res, replays, tab)
	if err != nil {
		t.Fatal(err)
	}
	var console bytes.Buffer
	explore.Print(&console, res, replays)
	console.WriteString(report.Summary(conf))
	formats := map[string]string{"console": console.String()}
	for _, name := range []string{report.JSONFile, report.HTMLFile, report.JUnitFile} {
		data, err := os.ReadFile(filepath.Join(dir, explore.FindingsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		formats[name] = string(data)
	}
	data := []byte(formats[report.JSONFile])
	if err := report.Validate(data); err != nil {
		t.Fatalf("conformance.json: %v", err)
	}
	var got report.Conformance
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	return formats, got
}

// profileMustBe checks that the report has the profile explore alone, with the result given.
func profileMustBe(t *testing.T, c report.Conformance, result string) {
	t.Helper()
	if len(c.Profiles) != 1 || c.Profiles[0].Name != report.ExploreProfile || c.Profiles[0].Result != result {
		t.Errorf("profiles %+v, want only %s with result %s", c.Profiles, report.ExploreProfile, result)
	}
}

// statusOf is each requirement's status in a report.
func statusOf(c report.Conformance) map[string]report.Status {
	out := map[string]report.Status{}
	for _, r := range c.Requirements {
		out[r.ID] = r.Status
	}
	return out
}
