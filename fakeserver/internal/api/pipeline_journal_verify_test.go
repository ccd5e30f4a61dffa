package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
)

// TestVerifySaysWhatArrived: when the request a test expects did not come, Verify's error lists
// the requests that did (method, path, user, status, parameters), not an empty list.
func TestVerifySaysWhatArrived(t *testing.T) {
	ts := fakeserver.Start(t)
	member := ts.Client("member")
	resp, err := member.PostForm(ts.URL+"/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"verify"}, "content": {"hello"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	err = ts.Server.Verify(fakeserver.JournalFilter{Method: "GET", Path: "/api/v1/messages"}, 1)
	if err == nil {
		t.Fatal("Verify of a request that never came succeeded")
	}
	for _, want := range []string{
		"0 requests match {method GET, path /api/v1/messages}, want 1",
		"none matched",
		"arrived (1):",
		`POST /api/v1/messages as member@chat.example.test -> 200 {content="hello", to="general", topic="verify", type="stream"}`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Verify's error lacks %q:\n%v", want, err)
		}
	}
	// Too many: the matching ones are listed, and the rest of the journal is not.
	err = ts.Server.Verify(fakeserver.JournalFilter{Path: "/api/v1/messages"}, 0)
	if err == nil || !strings.Contains(err.Error(), "matched (1):\n\tPOST /api/v1/messages") || strings.Contains(err.Error(), "arrived") {
		t.Errorf("Verify of 0 when 1 came: %v", err)
	}
}

// TestFaultedRequestsAreJournaledWithTheirParameters: a request a fault answered (an error, a
// dropped connection, after a delay or not) is in the journal with its form parameters and
// query, as an answered one is.
func TestFaultedRequestsAreJournaledWithTheirParameters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault fakeserver.Fault
		// status is what the journal records; 0 where the client gets no answer
		status int
	}{
		{"an error", fakeserver.Fault{Status: 503, Code: "SERVICE_UNAVAILABLE"}, 503},
		{"a delayed error", fakeserver.Fault{Status: 429, Delay: 20 * time.Millisecond}, 429},
		{"a dropped connection", fakeserver.Fault{Drop: true}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := fakeserver.Start(t)
			tc.fault.Path, tc.fault.Times = "/api/v1/messages", 1
			if _, err := ts.Server.InjectFault(tc.fault); err != nil {
				t.Fatal(err)
			}
			resp, err := ts.Client("member").PostForm(ts.URL+"/api/v1/messages?queue_id=q1",
				url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"faulted"}, "content": {"lost"}})
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != tc.status {
					t.Errorf("answered %d, want the fault's %d", resp.StatusCode, tc.status)
				}
			} else if !tc.fault.Drop {
				t.Fatal(err)
			}
			// The journal records a request when its handler returns; a dropped connection
			// reaches the client first, so the entry may follow the client's error.
			var got []fakeserver.JournalEntry
			for deadline := time.Now().Add(patience(t)); len(got) == 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				got = ts.Server.Journal(fakeserver.JournalFilter{Method: http.MethodPost, Path: "/api/v1/messages"})
			}
			if len(got) == 0 {
				t.Fatal("the faulted request is not in the journal")
			}
			e := got[0]
			if e.Params["topic"] != "faulted" || e.Params["content"] != "lost" || e.Params["queue_id"] != "q1" {
				t.Errorf("journal entry %s: want its form and query parameters", e)
			}
			if tc.status != 0 && e.Status != tc.status {
				t.Errorf("journal entry %s: want status %d", e, tc.status)
			}
		})
	}
}
