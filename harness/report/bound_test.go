package report

import (
	"bytes"
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

// answered500 is a run against a server answering every request 500 with an 8 KB page (as the
// harness records it, cut at 16 KiB): n specs, each with 10 such exchanges, failing through
// one harness assertion whose message dumps the page; when distinct, each spec fails at its own
// line (n findings), as a suite whose specs check the status themselves would.
func answered500(n int, distinct bool) types.Report {
	page := strings.Repeat("<p>Internal Server Error</p>\n", 8<<10/28)
	var specs types.SpecReports
	for i := range n {
		var out strings.Builder
		var exchanges []harness.Exchange
		for j := range 10 {
			url := fmt.Sprintf("http://x/api/v1/messages/%d", j)
			fmt.Fprintf(&out, "--> GET %s\n<-- 500 Internal Server Error (1ms)\n    %s\n", url, strings.ReplaceAll(page, "\n", "\n    "))
			exchanges = append(exchanges, harness.Exchange{Method: "GET", URL: url, Status: 500, ResponseBody: page, Start: time.Unix(int64(j), 0)})
		}
		file, line := "harness/envelope.go", 21
		if distinct {
			file, line = fmt.Sprintf("specs/s%d.go", i), i+1
		}
		s := failedAt(fmt.Sprintf("spec %d", i), "expected status 200, got 500\n\nbody:\n  "+strings.ReplaceAll(page, "\n", "\n  "), file, line, i,
			fmt.Sprintf("OP%02d-%02d", i%21+1, i%7+1), "CONV-01")
		s.CapturedGinkgoWriterOutput = out.String() + "--> DELETE http://x/api/v1/streams/9\n<-- 200 OK\n"
		s.Failure.TimelineLocation = types.TimelineLocation{Offset: out.Len(), Time: time.Unix(30, 0)}
		entries := types.ReportEntries{{Name: harness.ExchangesEntry, Value: types.WrapEntryValue(exchanges)}}
		for j := range 10 {
			entries = append(entries, types.ReportEntry{Name: "http status", Value: types.WrapEntryValue(fmt.Sprintf("GET /api/v1/messages/%d: HTTP 500", j))})
		}
		s.ReportEntries = entries
		specs = append(specs, s)
	}
	return types.Report{SuiteDescription: "suite", SpecReports: append(specs, spec("passes", types.SpecStatePassed, "", "CONV-01"))}
}

// writtenSizes writes a report and returns the sizes of its JSON and HTML files.
func writtenSizes(t *testing.T, c *Conformance) (jsonSize, htmlSize int64) {
	t.Helper()
	dir := t.TempDir()
	if err := Write(c, dir); err != nil {
		t.Fatal(err)
	}
	sizes := []int64{}
	for _, f := range []string{JSONFile, HTMLFile} {
		info, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, info.Size())
	}
	return sizes[0], sizes[1]
}

// TestReportBounded: against a server with one systemic bug (every request answered 500 with a
// 8 KB page, 200 specs failing), and one whose every spec fails its own way, conformance.json
// and conformance.html stay under 1.5 and 3 MB each (unbounded they are 30 to 130 MB); every failure is
// still listed with its spec, finding and message's start; what was cut is marked, per failure
// and for the report; a run that records exchanges keeps everything.
func TestReportBounded(t *testing.T) {
	if testing.Short() {
		// Builds reports of up to 130 MB: minutes under the race detector, which has nothing
		// to find in this single-goroutine code; the unit run (without -short) runs it.
		t.Skip("builds reports of up to 130 MB; run without -short")
	}
	target, full := sampleTarget(), sampleTarget()
	full.Config.RecordExchanges = true
	for _, tc := range []struct {
		name     string
		distinct bool
		findings int
		maxSize  int64
	}{{"one systemic bug", false, 1, 3 << 19}, {"every spec its own failure", true, 200, 3 << 20}} {
		t.Run(tc.name, func(t *testing.T) {
			r := answered500(200, tc.distinct)
			c := Build(testCatalog(), r, target)
			unbounded := Build(testCatalog(), r, full)
			j, h := writtenSizes(t, c)
			uj, uh := writtenSizes(t, unbounded)
			t.Logf("conformance.json %d bytes (unbounded %d), conformance.html %d bytes (unbounded %d)", j, uj, h, uh)
			if j > tc.maxSize || h > tc.maxSize {
				t.Errorf("conformance.json %d bytes, conformance.html %d bytes, want each under %d", j, h, tc.maxSize)
			}
			if uj < 10*tc.maxSize || unbounded.Bounded != nil {
				t.Errorf("with record-exchanges the report is cut: %d bytes, bounded %+v", uj, unbounded.Bounded)
			}
			if len(c.Findings) != tc.findings || c.Counts.Specs.Failed != 200 || c.Bounded == nil || c.Bounded.Full != FullReport {
				t.Fatalf("%d findings, %d failed specs, bounded %+v", len(c.Findings), c.Counts.Specs.Failed, c.Bounded)
			}
			// CONV-01 lists every failed spec: each named, with its finding and message's start.
			fails := c.Requirements[0].Failures
			kept, cut := 0, 0
			for i, f := range fails {
				if f.Spec != fmt.Sprintf("suite spec %d", i) || f.Finding == "" || !strings.HasPrefix(f.Message, "expected status 200, got 500") {
					t.Fatalf("failure %d: %s %s %.40q", i, f.Spec, f.Finding, f.Message)
				}
				if !strings.HasPrefix(f.FailingRequest, "--> GET http://x/api/v1/messages/9") {
					t.Errorf("failure %d lost its failing request: %.60q", i, f.FailingRequest)
				}
				if f.Omitted == nil {
					t.Fatalf("failure %d of a 1.3 MB output is not marked as cut", i)
				}
				if f.Exchanges == nil {
					cut++
					if f.Output != "" || !strings.Contains(f.FailingRequest, "\n<-- 500 Internal Server Error") || !strings.Contains(f.FailingRequest, "\n<-- 500 Internal Server Error") || f.Omitted.Exchanges != 10 || f.Omitted.Output == 0 || f.Omitted.Message == 0 || len(f.Notes) != DefaultLimits.MaxNotes {
						t.Errorf("cut failure %d: output %d bytes, notes %d, omitted %+v", i, len(f.Output), len(f.Notes), *f.Omitted)
					}
					continue
				}
				kept++
				if len(f.Output) > 2*DefaultLimits.MaxOutput || !strings.Contains(f.Output, "bytes of the output left out before") ||
					len(f.Exchanges) != 10 || len(f.Exchanges[9].ResponseBody) > 2*DefaultLimits.MaxBody || f.Omitted.Output == 0 {
					t.Errorf("kept failure %d: output %d bytes, omitted %+v", i, len(f.Output), *f.Omitted)
				}
			}
			if !tc.distinct && kept != DefaultLimits.FullPerFinding {
				t.Errorf("%d failures kept their exchanges, want the finding's first %d", kept, DefaultLimits.FullPerFinding)
			}
			// Distinct findings each keep their first spec until the report's budget is spent.
			if tc.distinct && (kept < 5 || cut < 150) {
				t.Errorf("%d kept, %d cut: the report's budget does not bound the distinct failures", kept, cut)
			}
			// The page escapes "<" as 4 bytes where JSON takes 6: the count is of text, before either.
			if c.Bounded.Failures < 200 || c.Bounded.Bytes < int(uh-h)/2 {
				t.Errorf("bounded = %+v for %d bytes saved in the page", *c.Bounded, uh-h)
			}
			// The example is the finding's first failure as kept.
			if ex := c.Findings[0].Example; ex.Exchanges == nil || len(ex.Output) > 2*DefaultLimits.MaxOutput {
				t.Errorf("the example is not the first kept failure: %d exchanges, %d bytes of output", len(ex.Exchanges), len(ex.Output))
			}
			var buf bytes.Buffer
			if err := renderHTML(&buf, c); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			if !strings.Contains(page, `id="bounded"`) || !strings.Contains(page, "record-exchanges") || strings.Count(page, `class="small omitted"`) != 200 {
				t.Errorf("the page does not say what it left out (%d failures marked)", strings.Count(page, `class="small omitted"`))
			}
			for i := range 200 {
				if !strings.Contains(page, fmt.Sprintf("<b>suite spec %d</b>", i)) {
					t.Fatalf("the page does not list spec %d", i)
				}
			}
		})
	}
}

// TestReportBoundLeavesSmallRunsAlone: a passing run's report, and that of a run with a few
// small failures, are the same bounded or not, with no marker.
func TestReportBoundLeavesSmallRunsAlone(t *testing.T) {
	full := sampleTarget()
	full.Config.RecordExchanges = true
	for name, r := range map[string]types.Report{"passing": {SuiteDescription: "suite", SpecReports: types.SpecReports{spec("passes", types.SpecStatePassed, "", "CONV-01")}},
		"sample": sampleReport(), "three of one finding": systemic(3)} {
		c, u := Build(testCatalog(), r, sampleTarget()), Build(testCatalog(), r, full)
		u.Target, u.GeneratedAt = c.Target, c.GeneratedAt
		a, _ := json.Marshal(c)
		b, _ := json.Marshal(u)
		if c.Bounded != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the bounded report differs (bounded %+v)", name, c.Bounded)
		}
	}
}
