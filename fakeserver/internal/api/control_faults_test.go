package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
)

// TestFaultDelayOutlastsWriteTimeout: a fault's delay longer than the server's write timeout
// (60 s in the binary, a fraction of a second here) still ends in an answer, the usual one or
// the fault's error, rather than in a connection the timeout cut.
func TestFaultDelayOutlastsWriteTimeout(t *testing.T) {
	fake := fakeserver.New()
	hs := httptest.NewUnstartedServer(fake)
	hs.Config.ReadTimeout, hs.Config.WriteTimeout = 200*time.Millisecond, 200*time.Millisecond
	hs.Start()
	t.Cleanup(func() { fake.Close(); hs.Close() })
	for _, tc := range []struct {
		fault  fakeserver.Fault
		status int
	}{
		{fakeserver.Fault{Path: "/api/v1/users/me", Delay: 700 * time.Millisecond, Times: 1}, http.StatusOK},
		{fakeserver.Fault{Path: "/api/v1/users/me", Delay: 700 * time.Millisecond, Status: 503, Code: "SERVICE_UNAVAILABLE", Times: 1}, http.StatusServiceUnavailable},
	} {
		if _, err := fake.InjectFault(tc.fault); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := send(httpClient, hs.URL, request{method: http.MethodGet, path: "/api/v1/users/me", auth: memberAuth})
		if err != nil || res.status != tc.status || res.env["result"] == nil || time.Since(start) < tc.fault.Delay {
			t.Errorf("a delay of %s with status %d: HTTP %d %v after %s, want %d", tc.fault.Delay, tc.fault.Status, res.status, err, time.Since(start), tc.status)
		}
	}
}

// TestFaultDefaultCode: a fault that names no code answers with one that fits its status: a
// server error is no BAD_REQUEST.
func TestFaultDefaultCode(t *testing.T) {
	ts := newServer(t)
	for status, code := range map[int]string{
		400: "BAD_REQUEST", 401: "UNAUTHORIZED", 404: "BAD_REQUEST", 429: "RATE_LIMIT_HIT",
		500: "INTERNAL_SERVER_ERROR", 502: "BAD_GATEWAY", 503: "SERVICE_UNAVAILABLE", 599: "SERVER_ERROR",
	} {
		if _, err := ts.Server.InjectFault(fakeserver.Fault{Path: "/api/v1/users/me", Status: status, Times: 1}); err != nil {
			t.Fatal(err)
		}
		res := get(t, ts.URL, memberAuth, "/api/v1/users/me", "")
		if res.status != status || res.env["code"] != code || res.env["result"] != "error" {
			t.Errorf("a fault of status %d: HTTP %d %s, want the code %s", status, res.status, res, code)
		}
	}
}
