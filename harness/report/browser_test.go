package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/harness/browser"
)

// TestHTMLReportInABrowser opens a report with a failure in headless Chromium, with the status
// filter set through the page's URL: the DOM must hide the passed rows and keep the failed one,
// and the failure must show its failing request marked, and how it was found. It keeps a screenshot for a person to
// look at (its path is logged). Chromium is installed by .ci/ensure-chromium; without it the
// test says so and is skipped.
func TestHTMLReportInABrowser(t *testing.T) {
	chromium := browser.Open(t)
	c := &Conformance{APIVersion: Version, Kind: Kind, Target: Target{URL: "http://chat.example.test"},
		Requirements: []Requirement{
			{ID: "CONV-01", Section: "Conventions", Text: "paths under /api/v1", Feature: "core", Status: Passed, Specs: []string{"a"}},
			{ID: "OP06-09", Section: "Endpoints / 6. Fetch a message", Text: "a missing message gets BAD_REQUEST", Feature: "messages", Status: Failed,
				Specs: []string{"b"}, Failures: []Failure{{Spec: "Operation 6 answers BAD_REQUEST", State: "failed",
					Message: `Expected "BAD_REQUEST", got "success"`,
					// The cleanup's DELETE comes after the failing GET.
					Output:         "--> POST http://chat.example.test/api/v1/messages\n<-- 200 OK\n--> GET http://chat.example.test/api/v1/messages/999\n<-- 200 OK\n--> DELETE http://chat.example.test/api/v1/messages/1\n<-- 200 OK\n",
					FailingRequest: "--> GET http://chat.example.test/api/v1/messages/999\n<-- 200 OK", FailingBy: ByAssertion}}},
			{ID: "MSG-01", Section: "Resources / Message", Text: "id is an integer", Feature: "messages", Status: Passed, Specs: []string{"c"}},
		}}
	c.Profiles = profiles(c.Requirements)
	dir := t.TempDir()
	page := filepath.Join(dir, "conformance.html")
	if err := WriteHTML(c, page); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page + "#status=failed"
	dom := chromium.DOM(url)
	row := func(id string) string {
		m := regexp.MustCompile(`<tr id="` + id + `"[^>]*>`).FindString(dom)
		if m == "" {
			t.Fatalf("no row %s in the DOM", id)
		}
		return m
	}
	for _, id := range []string{"CONV-01", "MSG-01"} {
		if !strings.Contains(row(id), "hidden") {
			t.Errorf("the status filter left the passed row %s shown: %s", id, row(id))
		}
	}
	if strings.Contains(row("OP06-09"), "hidden") {
		t.Errorf("the status filter hid the failed row: %s", row("OP06-09"))
	}
	marked := regexp.MustCompile(`(?s)<mark class="failing"[^>]*>(.*?)</mark>`).FindStringSubmatch(dom)
	if marked == nil || !strings.Contains(marked[1], "/api/v1/messages/999") || strings.Contains(marked[1], "POST") || strings.Contains(marked[1], "DELETE") {
		t.Errorf("the failing request is not the one marked: %v", marked)
	}
	if !strings.Contains(dom, "The request the failed assertion was about (the assertion checked its response)") {
		t.Error("the page does not say the failing assertion named its exchange")
	}
	if !strings.Contains(dom, "1 of 3 shown") {
		t.Error("the page does not say how many rows the filter shows")
	}
	// The operation filter in the page's address, by its number.
	byOp := chromium.DOM("file://" + page + "#op=6")
	for id, hidden := range map[string]bool{"CONV-01": true, "MSG-01": true, "OP06-09": false} {
		m := regexp.MustCompile(`<tr id="` + id + `"[^>]*>`).FindString(byOp)
		if strings.Contains(m, "hidden") != hidden {
			t.Errorf("#op=6: row %s hidden %t, want %t: %s", id, !hidden, hidden, m)
		}
	}
	shot := filepath.Join(os.TempDir(), "chatconform-report.png")
	chromium.Screenshot(url, shot, 1200, 1400)
	if info, err := os.Stat(shot); err != nil || info.Size() == 0 {
		t.Errorf("no screenshot: %v", err)
	} else {
		t.Logf("screenshot of the filtered report: %s (%d bytes)", shot, info.Size())
	}
}
