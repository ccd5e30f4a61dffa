package report

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
)

// markServer answers GET /api/v1/<name> with {"result":"success","msg":"","name":<name>,"n":<how
// many times it was asked>}, and GET /api/v1/limited the second time with a 429 (which the
// harness retries).
func markServer(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	asked := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/api/v1/")
		mu.Lock()
		asked[name]++
		n := asked[name]
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if name == "limited" && n == 2 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"result":"error","msg":"slow down","code":"RATE_LIMIT_HIT"}`)
			return
		}
		fmt.Fprintf(w, `{"result":"success","msg":"","name":%q,"n":%d}`, name, n)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// failingSpec keeps the first assertion failure as Ginkgo would: its message (redacted, as
// ginkgoReporter hands it to Fail), and where in the spec's output and when it came.
type failingSpec struct {
	log     strings.Builder
	message string
	at      types.TimelineLocation
}

func (f *failingSpec) Errorf(format string, args ...any) {
	if f.message == "" {
		f.message = harness.RedactText(fmt.Sprintf(format, args...))
		f.at = types.TimelineLocation{Offset: f.log.Len(), Time: time.Now()}
	}
}

// report is the spec's report once it ended, with its exchanges as the suite's AfterEach
// adds them.
func (f *failingSpec) report() types.SpecReport {
	s := spec("marks", types.SpecStateFailed, f.message, "OP06-01")
	s.CapturedGinkgoWriterOutput = f.log.String()
	s.Failure.TimelineLocation = f.at
	s.ReportEntries = types.ReportEntries{{Name: harness.ExchangesEntry, Value: types.WrapEntryValue(harness.TakeExchanges())}}
	return s
}

// TestMarkTheAssertedExchange runs requests through the harness's client against a server,
// fails an assertion, and checks the exchange the report marks: the one whose response a
// failing httpexpect assertion checked, whatever came after it (another request, the same
// request again, the cleanup's); for a failure no httpexpect assertion noted (a Gomega
// assertion), the last request before the failure.
func TestMarkTheAssertedExchange(t *testing.T) {
	for _, tc := range []struct {
		name string
		// run sends the spec's requests and fails one assertion; gomega, when set, is a failure
		// that went through no httpexpect assertion.
		run    func(c *harness.Client, fail func(string))
		index  int
		marked string // in the marked text, which is the output's
		by     string
	}{
		{"A then B, A's reply fails", func(c *harness.Client, _ func(string)) {
			a := c.GET("/a").Expect()
			c.GET("/b").Expect().Status(http.StatusOK)
			a.JSON().Object().Value("n").IsEqual(2)
		}, 0, `"name":"a"`, ByAssertion},
		{"A twice, the first reply fails", func(c *harness.Client, _ func(string)) {
			first := c.GET("/a").Expect()
			c.GET("/a").Expect().Status(http.StatusOK)
			c.GET("/b").Expect().Status(http.StatusOK)
			first.JSON().Object().Value("n").IsEqual(5)
		}, 0, `"n":1`, ByAssertion},
		{"A twice, the second reply fails", func(c *harness.Client, _ func(string)) {
			c.GET("/a").Expect().Status(http.StatusOK)
			c.GET("/a").Expect().JSON().Object().Value("n").IsEqual(5)
		}, 1, `"n":2`, ByAssertion},
		{"a request retried after a 429, then B, its reply fails", func(c *harness.Client, _ func(string)) {
			c.GET("/limited").Expect().Status(http.StatusOK)
			r := c.GET("/limited").Expect()
			c.GET("/b").Expect().Status(http.StatusOK)
			r.JSON().Object().Value("n").IsEqual(1)
		}, 2, `"name":"limited","n":3`, ByAssertion},
		{"A, then A retried after a 429, the first reply fails", func(c *harness.Client, _ func(string)) {
			first := c.GET("/limited").Expect()
			c.GET("/limited").Expect().Status(http.StatusOK)
			first.JSON().Object().Value("n").IsEqual(5)
		}, 0, `"name":"limited","n":1`, ByAssertion},
		{"A then B, a Gomega assertion fails", func(c *harness.Client, fail func(string)) {
			c.GET("/a").Expect().Status(http.StatusOK)
			c.GET("/b").Expect().Status(http.StatusOK)
			fail("Expected\n    <int>: 1\nto equal\n    <int>: 2")
		}, 1, `"name":"b"`, ByOrder},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := markServer(t)
			harness.TakeExchanges() // another test's
			f := &failingSpec{}
			tgt := &harness.Target{URL: srv.URL, Reporter: f, Log: &f.log}
			c := tgt.Anonymous()
			tc.run(c, func(msg string) { f.Errorf("%s", msg) })
			// The spec's cleanup after the failure.
			c.DELETE("/c").Expect()
			if f.message == "" {
				t.Fatal("no assertion failed")
			}
			s := f.report()
			exchanges := harness.ExchangesOf(s.ReportEntries)
			for i, e := range exchanges {
				if noted := len(e.FailedAssertions) > 0; noted != (i == tc.index && tc.by == ByAssertion) {
					t.Errorf("exchange %d (%s %s) has failures noted: %q", i, e.Method, e.URL, e.FailedAssertions)
				}
			}

			fail := failureOf(s)
			if fail.FailingExchange == nil || *fail.FailingExchange != tc.index || fail.FailingBy != tc.by {
				t.Fatalf("failing exchange %v by %q, want %d by %q", fail.FailingExchange, fail.FailingBy, tc.index, tc.by)
			}
			for _, e := range fail.Exchanges {
				if len(e.FailedAssertions) > 0 {
					t.Errorf("the report's exchanges repeat the failure: %q", e.FailedAssertions)
				}
			}
			if !strings.HasPrefix(fail.FailingRequest, "--> GET "+srv.URL+"/api/v1/") || !strings.Contains(fail.FailingRequest, tc.marked) ||
				strings.Count(fail.FailingRequest, "--> ") != 1 {
				t.Errorf("failing request %q, want the one with %s", fail.FailingRequest, tc.marked)
			}
			page := string(markFailing(fail.Output, fail.FailingRequest, fail.failingAt))
			start := strings.Index(page, "<mark")
			end := strings.Index(page, "</mark>")
			if strings.Count(page, "<mark") != 1 || start < 0 || end < start {
				t.Fatalf("not one mark:\n%s", page)
			}
			if marked := page[start:end]; !strings.Contains(marked, strings.ReplaceAll(tc.marked, `"`, "&#34;")) {
				t.Errorf("marked %q, want the exchange with %s", marked, tc.marked)
			}
		})
	}
}

// TestFailingExchangeWithoutOutput: an exchange an assertion noted but the output does not
// show (the spec's output was cut, or kept elsewhere) is still the mark, as text of its own.
func TestFailingExchangeWithoutOutput(t *testing.T) {
	s := spec("x", types.SpecStateFailed, "expected: 2")
	m := failingExchange(s, []harness.Exchange{
		{Method: "GET", URL: "http://x/api/v1/a", Status: 200, ResponseBody: `{"n":1}`, FailedAssertions: []string{"expected: 2"}},
		{Method: "GET", URL: "http://x/api/v1/b", Status: 200},
	})
	if m.index == nil || *m.index != 0 || m.by != ByAssertion || m.at != nil || m.text != "--> GET http://x/api/v1/a\n<-- 200 OK (0ms)\n    {\"n\":1}" {
		t.Errorf("mark %+v (%q)", m, m.text)
	}
	if m := failingExchange(s, nil); m.index != nil || m.text != "" || m.by != "" {
		t.Errorf("a mark without exchanges or output: %+v", m)
	}
}

var _ httpexpect.Reporter = (*failingSpec)(nil)
