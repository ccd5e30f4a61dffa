package fakeserver

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// Start starts a fake server on a loopback port for the test and closes it when the test
// ends (t.Cleanup): the one line a test needs. Options that cannot start a fake (a fixture
// that does not load, a feature level out of range) fail the test, saying why.
//
//	ts := fakeserver.Start(t)
//	resp, err := ts.Client("member").Get(ts.URL + "/api/v1/users/me")
func Start(t testing.TB, opts ...Option) *TestServer {
	t.Helper()
	if err := checkStartup(opts); err != nil {
		t.Fatalf("fakeserver.Start: %v", err)
	}
	ts := NewTestServer(opts...)
	t.Cleanup(ts.Close)
	return ts
}

// SetClock moves the virtual time to t, forward or back, and delivers what fell due on the way
// (reminders, the expiry of unused uploads), as POST /_fake/clock with now does.
func (s *Server) SetClock(t time.Time) error {
	if err := checkClockMove(t.Unix(), true, 0, false, false, s.clock.Unix()); err != nil {
		return err
	}
	s.clock.Set(t)
	s.state.Tick()
	return nil
}

// Client returns an HTTP client that authenticates every request as who, a fixture role
// ("owner", "administrator", "moderator", "member", "guest", "bot") or the login email of any
// active user (one created through the API or Server.As too), with the API's HTTP Basic
// credentials. It panics on a name the realm does not have: that is a mistake in the test,
// not a condition to handle.
func (ts *TestServer) Client(who string) *http.Client {
	a, err := ts.Server.As(who)
	if err != nil {
		panic(fmt.Sprintf("fakeserver: Client(%q): %v", who, err))
	}
	email, key, _ := ts.Server.state.LoginOf(a.id)
	return &http.Client{Transport: basicAuthTransport{email: email, key: key}, Timeout: time.Minute}
}

// basicAuthTransport adds HTTP Basic credentials to requests that carry none.
type basicAuthTransport struct{ email, key string }

func (b basicAuthTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get("Authorization") == "" {
		r = r.Clone(r.Context())
		r.SetBasicAuth(b.email, b.key)
	}
	return http.DefaultTransport.RoundTrip(r)
}
