package verdicts_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/browser"
	"github.com/chatconform/chatconform/harness/report"
)

// alteringProxy serves the reference fake behind a reverse proxy that hands every JSON object
// reply to alter, which may change it: a server with a bug of our choosing.
func alteringProxy(t *testing.T, alter func(r *http.Request, reply map[string]any)) *httptest.Server {
	t.Helper()
	fake := fakeserver.New()
	backend := httptest.NewServer(fake)
	u, _ := url.Parse(backend.URL)
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		var reply map[string]any
		if json.Unmarshal(body, &reply) == nil {
			alter(resp.Request, reply)
			body, _ = json.Marshal(reply)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(func() { front.Close(); backend.Close(); fake.Close() })
	return front
}

// runFull runs the runner against base as the fixture's owner, its reports in dir.
func runFull(t *testing.T, bin, base, dir string, args ...string) runResult {
	t.Helper()
	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	return runIn(t, bin, base, owner, dir, args, nil)
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// failureBlock returns the HTML of the failure section of the spec whose text holds spec.
func failureBlock(t *testing.T, dom, spec string) string {
	t.Helper()
	for _, block := range regexp.MustCompile(`(?s)<div class="failure" id="[^"]+">.*?\n</div>`).FindAllString(dom, -1) {
		if strings.Contains(block, spec) {
			return block
		}
	}
	t.Fatalf("no failure section of %q in the page", spec)
	return ""
}

// TestFindingsAgainstBrokenServers runs the suite against servers made broken by a proxy in
// front of the fake, and opens the HTML report in headless Chromium.
//
// One rule broken (the topics of a channel listed oldest first): the failure section marks
// the GET …/topics whose answer the assertion was about, at its top, and not the cleanup's
// DELETE /streams/{id} that came after it.
//
// A systemic bug (success replies without msg): the hundreds of failures are one finding,
// named first in the console, the HTML and the JSON with its counts; the console prints it once
// in full and every other failed spec on one line; junit.xml stays under 2 MB.
//
// The fake itself: no finding, and a junit.xml without per-request notes.
func TestFindingsAgainstBrokenServers(t *testing.T) {
	bin := wholeRuns(t, "builds the runner and runs the suite three times")

	t.Run("one rule broken", func(t *testing.T) {
		t.Parallel()
		topics := regexp.MustCompile(`^/api/v1/users/me/[0-9]+/topics$`)
		srv := alteringProxy(t, func(r *http.Request, reply map[string]any) {
			if list, ok := reply["topics"].([]any); ok && r.Method == "GET" && topics.MatchString(r.URL.Path) {
				for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
					list[i], list[j] = list[j], list[i]
				}
			}
		})
		dir := t.TempDir()
		run := runFull(t, bin, srv.URL, dir, "-ginkgo.label-filter=req:OP12-03 || req:OP12-04 || req:OP12-05 || req:OP12-06")
		code, console, c := run.code, run.console, run.report
		if code != 1 {
			t.Fatalf("exit %d, want 1:\n%s", code, console)
		}
		byID := map[string]report.Requirement{}
		for _, r := range c.Requirements {
			byID[r.ID] = r
		}
		if byID["OP12-03"].Status != report.Passed || byID["OP12-04"].Status != report.Failed || byID["OP12-05"].Status != report.Failed {
			t.Fatalf("OP12-03 %s, OP12-04 %s, OP12-05 %s: want passed, failed, failed", byID["OP12-03"].Status, byID["OP12-04"].Status, byID["OP12-05"].Status)
		}
		// Two assertions fail: the order of two topics (OP12-04), and the owner's list in a
		// private channel, which both entries of one table check at one line (OP12-05, -06).
		if len(c.Findings) != 2 || c.Findings[0].Count != 2 || strings.Join(c.Findings[0].Requirements, " ") != "OP12-05 OP12-06" ||
			strings.Join(c.Findings[1].Requirements, " ") != "OP12-04" {
			t.Errorf("findings %+v: want one of OP12-05 and -06, one of OP12-04", c.Findings)
		}
		f := byID["OP12-04"].Failures[0]
		if f.FailingExchange == nil || f.Exchanges[*f.FailingExchange].Method != "GET" || !topics.MatchString(pathOf(f.Exchanges[*f.FailingExchange].URL)) {
			t.Errorf("the failing exchange is %v of %d, not the GET …/topics", f.FailingExchange, len(f.Exchanges))
		}
		if !strings.HasPrefix(f.FailingRequest, "--> GET ") || !strings.Contains(f.FailingRequest, "/topics") {
			t.Errorf("failing request %q, want the GET …/topics", f.FailingRequest)
		}
		// The order is checked by a Gomega assertion on the names taken out of the reply: it
		// does not know its reply, so the mark is the last request before it.
		if f.FailingBy != report.ByOrder {
			t.Errorf("the failing exchange found by %q, want %q", f.FailingBy, report.ByOrder)
		}
		// The spec's cleanup (archiving its channel) comes after the failing request: the last
		// request of the spec is not the one to mark.
		if i := strings.LastIndex(f.Output, f.FailingRequest); i < 0 || !strings.Contains(f.Output[i:], "--> DELETE ") {
			t.Errorf("no cleanup request after the failing one in the spec's output: the test would not tell the two apart:\n%s", f.Output[max(0, len(f.Output)-1500):])
		}

		dom := browser.Open(t).DOM("file://" + filepath.Join(dir, report.HTMLFile))
		block := failureBlock(t, dom, "most recent first")
		first := regexp.MustCompile(`(?s)<pre[^>]*>(.*?)</pre>`).FindStringSubmatch(block)
		if first == nil || !strings.Contains(first[0], `class="failing-request"`) || !strings.Contains(first[1], "--&gt; GET ") ||
			!strings.Contains(first[1], "/topics") || strings.Contains(first[1], "DELETE") {
			t.Errorf("the failure section does not open with the GET …/topics:\n%.2000s", block)
		}
		marks := regexp.MustCompile(`(?s)<mark class="failing"[^>]*>(.*?)</mark>`).FindAllStringSubmatch(block, -1)
		if len(marks) != 2 {
			t.Fatalf("%d marks in the failure section, want 2 (at its top and in the timeline)", len(marks))
		}
		for _, m := range marks {
			if !strings.HasPrefix(m[1], "--&gt; GET ") || !strings.Contains(m[1], "/topics") || strings.Contains(m[1], "DELETE") {
				t.Errorf("marked: %.300s", m[1])
			}
		}
		if !strings.Contains(block, "The last request before the failure (the failed assertion does not say which reply it checked)") {
			t.Error("the failure section does not say its mark is the last request before the failure")
		}
		if !regexp.MustCompile(`<details><summary class="small">Every HTTP exchange`).MatchString(block) {
			t.Error("the whole timeline is not folded under the failing request")
		}
	})

	t.Run("a systemic bug", func(t *testing.T) {
		t.Parallel()
		srv := alteringProxy(t, func(_ *http.Request, reply map[string]any) {
			if reply["result"] == "success" {
				delete(reply, "msg")
			}
		})
		dir := t.TempDir()
		run := runFull(t, bin, srv.URL, dir)
		code, console, c := run.code, run.console, run.report
		if code != 1 || len(c.Findings) == 0 {
			t.Fatalf("exit %d, %d findings: want 1 and some", code, len(c.Findings))
		}
		top := c.Findings[0]
		failed := c.Counts.Specs.Failed
		if len(c.Findings) != 1 || top.Count != failed || len(top.Requirements) != c.Counts.Failed+c.Counts.Blocked || !strings.Contains(top.Message, `"msg"`) {
			t.Errorf("%d findings, the first %s: %d specs of %d failed, %d requirements of %d failed or blocked, message %q: want one finding of them all",
				len(c.Findings), top.ID, top.Count, failed, len(top.Requirements), c.Counts.Failed+c.Counts.Blocked, top.Message)
		}
		// One root cause, one verdict: the envelope (CONV-05) failed, every other requirement
		// its finding fails is blocked by it, and the finding names the field.
		if top.Title != "msg: missing (CONV-05)" || top.Root != "CONV-05" || c.Counts.Failed != 1 || c.Counts.Blocked != len(top.Requirements)-1 || len(top.Blocks) != c.Counts.Blocked {
			t.Errorf("finding %q rooted in %q blocks %d; %d requirements failed, %d blocked: want msg named, CONV-05 alone failed, every other blocked by it",
				top.Title, top.Root, len(top.Blocks), c.Counts.Failed, c.Counts.Blocked)
		}
		if r := requirement(t, c, "CONV-05"); r.Status != report.Failed {
			t.Errorf("CONV-05 %s, want failed", r.Status)
		}
		if r := requirement(t, c, "OP06-01"); r.Status != report.Blocked || strings.Join(r.BlockedBy, ",") != "CONV-05" || !strings.HasPrefix(r.Reason, "blocked by CONV-05") {
			t.Errorf("OP06-01 %s (%s), blocked by %q: want blocked by CONV-05", r.Status, r.Reason, r.BlockedBy)
		}
		if !strings.Contains(console, fmt.Sprintf(", 1 failed, %d blocked,", c.Counts.Blocked)) || !strings.Contains(console, "msg: missing (CONV-05)") {
			t.Errorf("the console does not count the blocked requirements apart or name the field:\n%s", console[max(0, len(console)-3000):])
		}
		junitXML, _ := os.ReadFile(filepath.Join(dir, "junit.xml"))
		if n := bytes.Count(junitXML, []byte(`type="blocked"`)); n == 0 || n >= failed {
			t.Errorf("%d junit cases typed blocked of %d failed: want the specs of CONV-05 failed, the others blocked", n, failed)
		}
		// The site is the harness's check of the envelope, not the harness's assertion handler
		// the failure went through, nor httpexpect.
		if !strings.HasPrefix(top.Site, "harness/envelope.go:") || top.Example.Location == "" || strings.Contains(top.Example.Location, "reporter.go") {
			t.Errorf("the finding's site %q, its first failure at %q: want harness/envelope.go and the spec's line", top.Site, top.Example.Location)
		}
		// The envelope is checked by an httpexpect assertion, which names the reply it checked:
		// the marked exchange is a success without msg, whatever the spec sent after it.
		byAssertion, failures := 0, 0
		for _, r := range c.Requirements {
			for _, f := range r.Failures {
				failures++
				if f.FailingBy != report.ByAssertion {
					continue
				}
				byAssertion++
				if f.FailingExchange == nil {
					t.Fatalf("%s: failing by assertion without an exchange", f.Spec)
				}
				// A failure the bounded report cut keeps its failing request as text only.
				if f.Exchanges == nil {
					if f.Omitted == nil || !strings.Contains(f.FailingRequest, "\n<-- 200 ") || strings.Contains(f.FailingRequest, `"msg":`) {
						t.Errorf("%s: cut without saying so, or its failing request is not a success without msg: %.300s", f.Spec, f.FailingRequest)
					}
					continue
				}
				if ex := f.Exchanges[*f.FailingExchange]; !successWithoutMsg(ex) {
					t.Errorf("%s: the marked exchange's reply is not a success without msg: %s %s: %d %.300s", f.Spec, ex.Method, ex.URL, ex.Status, ex.ResponseBody)
				}
			}
		}
		if byAssertion == 0 {
			t.Error("no failure's exchange was found by its assertion")
		}
		t.Logf("systemic bug: %d of %d failures (per requirement) marked by their assertion", byAssertion, failures)
		lines := strings.Count(console, "\n")
		oneLine := strings.Count(console, "✗ FAILED ")
		junit := fileSize(t, filepath.Join(dir, "junit.xml"))
		t.Logf("systemic bug: %d specs failed, %d requirements failed, %d findings; console %d lines (%d bytes), %d one-line failures; junit.xml %d bytes, conformance.json %d bytes, conformance.html %d bytes",
			failed, c.Counts.Failed, len(c.Findings), lines, len(console), oneLine, junit,
			fileSize(t, filepath.Join(dir, report.JSONFile)), fileSize(t, filepath.Join(dir, report.HTMLFile)))
		if oneLine != failed-len(c.Findings) || strings.Count(console, "first seen here") != len(c.Findings) {
			t.Errorf("%d one-line failures and %d in full, want %d and %d", oneLine, strings.Count(console, "first seen here"), failed-len(c.Findings), len(c.Findings))
		}
		if lines > failed+400 {
			t.Errorf("console of %d lines for %d failures of %d findings; its most frequent lines other than one-line failures:\n%s",
				lines, failed, len(c.Findings), frequentLines(console, 15))
		}
		if i, j := strings.Index(console, "findings (distinct failures)"), strings.Index(console, "requirements: "); i < 0 || i > j {
			t.Errorf("the summary does not open with the findings:\n%s", console[max(0, len(console)-3000):])
		}
		if junit > 2<<20 {
			t.Errorf("junit.xml is %d bytes, want under 2 MB", junit)
		}
		// The JSON and HTML reports keep every failure named but bound its output and exchanges.
		for _, name := range []string{report.JSONFile, report.HTMLFile} {
			if size := fileSize(t, filepath.Join(dir, name)); size > 3<<20 {
				t.Errorf("%s is %d bytes, want under 3 MB", name, size)
			}
		}
		if c.Bounded == nil || c.Bounded.Failures == 0 {
			t.Errorf("the report does not say what it left out: %+v", c.Bounded)
		}

		dom := browser.Open(t).DOM("file://" + filepath.Join(dir, report.HTMLFile))
		findings, profiles := strings.Index(dom, `<h2 class="failed" id="findings">`), strings.Index(dom, "<h2>Profiles</h2>")
		if findings < 0 || findings > profiles {
			t.Fatalf("the findings do not come before the profiles (at %d and %d)", findings, profiles)
		}
		row := regexp.MustCompile(`(?s)<tr class="finding" id="finding-` + top.ID + `">\s*<td>.*?</td>\s*<td>([0-9]+)</td>\s*<td>([0-9]+)`).FindStringSubmatch(dom)
		if row == nil || row[1] != strconv.Itoa(failed) || row[2] != strconv.Itoa(c.Counts.Failed+c.Counts.Blocked) {
			t.Errorf("the finding's row %v, want %d specs and %d requirements", row, failed, c.Counts.Failed+c.Counts.Blocked)
		}
		if !strings.Contains(dom, `<tr id="OP06-01" class="req" data-status="blocked"`) {
			t.Error("the page does not show OP06-01 as blocked")
		}
	})

	// Every error code renamed (lower case): one cause, one finding, whichever site checked the
	// code, titled with the field and the values.
	t.Run("renamed error codes", func(t *testing.T) {
		t.Parallel()
		srv := alteringProxy(t, func(_ *http.Request, reply map[string]any) {
			if code, ok := reply["code"].(string); ok && reply["result"] == "error" {
				reply["code"] = strings.ToLower(code)
			}
		})
		run := runFull(t, bin, srv.URL, t.TempDir())
		c := run.report
		t.Logf("renamed codes: %d specs failed, %d requirements failed, %d blocked, %d findings", c.Counts.Specs.Failed, c.Counts.Failed, c.Counts.Blocked, len(c.Findings))
		if run.code != 1 || len(c.Findings) != 1 {
			t.Fatalf("exit %d, %d findings: want 1 and one finding", run.code, len(c.Findings))
		}
		f := c.Findings[0]
		if f.Field != "code" || !strings.HasPrefix(f.Title, "code: ") || !strings.Contains(f.Title, "a code the document does not name") ||
			!slices.Contains(f.Values, `"bad_request" for "BAD_REQUEST"`) || !slices.Contains(f.Values, `"unauthorized" for "UNAUTHORIZED"`) {
			t.Errorf("finding %q (field %q, values %q): want the code named with the wrong values", f.Title, f.Field, f.Values)
		}
	})

	// A wrong max_id in topic listings: one finding that names the field and both values.
	t.Run("a wrong max_id", func(t *testing.T) {
		t.Parallel()
		srv := alteringProxy(t, func(r *http.Request, reply map[string]any) {
			if list, ok := reply["topics"].([]any); ok && r.Method == "GET" {
				for _, e := range list {
					if m, ok := e.(map[string]any); ok {
						m["max_id"] = m["max_id"].(float64) + 1
					}
				}
			}
		})
		c := runFull(t, bin, srv.URL, t.TempDir(), "-ginkgo.label-filter=req:RES-17 || req:OP12-03").report
		if len(c.Findings) != 1 || !regexp.MustCompile(`^topics\[\]\.max_id: [0-9]+, expected [0-9]+$`).MatchString(c.Findings[0].Title) {
			t.Errorf("findings %+v: want one, titled with topics[].max_id and both values", c.Findings)
		}
	})

	t.Run("the fake itself", func(t *testing.T) {
		t.Parallel()
		fake := fakeserver.New()
		srv := httptest.NewServer(fake)
		defer srv.Close()
		defer fake.Close()
		dir := t.TempDir()
		run := runFull(t, bin, srv.URL, dir)
		code, console, c := run.code, run.console, run.report
		junit := fileSize(t, filepath.Join(dir, "junit.xml"))
		t.Logf("the fake: junit.xml %d bytes, console %d lines", junit, strings.Count(console, "\n"))
		if code != 0 || len(c.Findings) != 0 {
			t.Fatalf("exit %d, %d findings: want 0, 0", code, len(c.Findings))
		}
		data, _ := os.ReadFile(filepath.Join(dir, "junit.xml"))
		if bytes.Contains(data, []byte(`name="http status"`)) {
			t.Error("junit.xml keeps the notes of passing specs")
		}
		// A passing run's console is its progress and its summary: no spec's report entries
		// (what a spec records as information is for a failure or -ginkgo.v).
		if strings.Contains(console, "Report Entries") || strings.Contains(console, "information: ") || strings.Count(console, "\n") > 100 {
			t.Errorf("a passing run's console holds more than its progress and summary (%d lines):\n%s", strings.Count(console, "\n"), frequentLines(console, 10))
		}
		// junit.xml counts the specs as the console does.
		var suites struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Disabled int `xml:"disabled,attr"`
		}
		if err := xml.Unmarshal(data, &suites); err != nil {
			t.Fatal(err)
		}
		if suites.Tests != c.Counts.Specs.Total || suites.Failures != c.Counts.Specs.Failed || suites.Disabled != c.Counts.Specs.Skipped+c.Counts.Specs.Pending ||
			!strings.Contains(console, fmt.Sprintf("specs: %d: %d passed", suites.Tests, c.Counts.Specs.Passed)) {
			t.Errorf("junit.xml totals: %d tests, %d failures, %d disabled; the report: %+v", suites.Tests, suites.Failures, suites.Disabled, c.Counts.Specs)
		}
	})
}

// successWithoutMsg reports whether an exchange's reply is a success without msg; a body cut
// for the report (not JSON any more) is judged by its status and the absence of the key.
func successWithoutMsg(ex harness.Exchange) bool {
	var reply map[string]any
	if json.Unmarshal([]byte(ex.ResponseBody), &reply) != nil {
		return ex.Status == http.StatusOK && !strings.Contains(ex.ResponseBody, `"msg":`)
	}
	_, hasMsg := reply["msg"]
	return reply["result"] == "success" && !hasMsg
}

// pathOf is a URL's path.
func pathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Path
}

// frequentLines lists the n most frequent lines of console other than one-line failures, digits
// folded, to say what made a console longer than its failures.
func frequentLines(console string, n int) string {
	counts := map[string]int{}
	for _, line := range strings.Split(console, "\n") {
		if !strings.Contains(line, "✗ FAILED ") {
			counts[strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return 'N'
				}
				return r
			}, line)]++
		}
	}
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b string) int { return counts[b] - counts[a] })
	var b strings.Builder
	for _, k := range keys[:min(n, len(keys))] {
		fmt.Fprintf(&b, "  %5d %.120s\n", counts[k], k)
	}
	return b.String()
}
