package fakeserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/control"
	"github.com/chatconform/chatconform/fixtures"
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
	if err := control.CheckClockMove(t.Unix(), true, 0, false, false, s.clock.Unix()); err != nil {
		return err
	}
	s.clock.Set(t)
	s.state.Tick()
	return nil
}

// Client returns an HTTP client that authenticates every request as who, a fixture role
// ("owner", "administrator", "moderator", "member", "guest", "bot") or the login email of any
// active user (one created through the API or Server.As too), with the API's HTTP Basic
// credentials. For a name the realm does not have, every request of the client fails with
// an error that says so and names the roles (Server.As's), at the test's first request and
// where it already checks errors, rather than in a panic.
func (ts *TestServer) Client(who string) *http.Client {
	a, err := ts.Server.As(who)
	if err != nil {
		return &http.Client{Transport: failingTransport{fmt.Errorf("fakeserver: Client(%q): %w", who, err)}}
	}
	email, key, _ := ts.Server.state.LoginOf(a.id)
	return &http.Client{Transport: basicAuthTransport{email: email, key: key}, Timeout: time.Minute}
}

// failingTransport fails every request with err, sending nothing.
type failingTransport struct{ err error }

func (f failingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_ = r.Body.Close() // a RoundTripper closes the body, even on error
	}
	return nil, f.err
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

// Option configures a Server.
type Option func(*Server)

// WithFixture starts the server on the given fixture instead of the embedded default (one
// that fixtures.Parse or fixtures.LoadFile returned, or that passes CheckFixture).
func WithFixture(f *fixtures.Fixture) Option {
	return func(s *Server) { s.fixture, s.fixtureSet = f, true }
}

// WithConfig sets the server configuration the fake starts with, and returns to on every
// reset; settings left zero take their defaults.
func WithConfig(c Config) Option { return func(s *Server) { s.start.config = c } }

// TestServer is a fake server listening on a loopback port, in the style of httptest.Server.
type TestServer struct {
	// URL is the base URL, e.g. http://127.0.0.1:50123; the API is under URL + "/api/v1".
	URL string
	// Server is the fake itself, for direct use of its Go control methods.
	Server *Server

	ts *httptest.Server
}

// NewTestServer starts a fake server on 127.0.0.1 at a free port.
func NewTestServer(opts ...Option) *TestServer {
	srv := New(opts...)
	ts := httptest.NewServer(srv)
	return &TestServer{URL: ts.URL, Server: srv, ts: ts}
}

// Close shuts the server down and waits for requests in flight; long polls of GET /events
// are answered at once rather than at their timeout.
func (ts *TestServer) Close() {
	ts.Server.Close()
	ts.ts.Close()
}

// WithFeatureLevel makes the fake a server of that feature level (1 to 10000) from the start
// and after every reset or fixture load, whatever the fixture says; PATCH /_fake/config with
// feature_level changes it until the next reset.
func WithFeatureLevel(level int) Option { return func(s *Server) { s.start.level = level } }

// ClockMode is how the fake's virtual clock moves.
type ClockMode string

const (
	// ClockFrozen stands still at the fixture's start time unless the control API moves it:
	// timestamps are reproducible and time limits are crossed without waiting.
	ClockFrozen ClockMode = fixtures.ClockFrozen
	// ClockWall starts at the wall time and runs with it, for clients that compare the
	// server's timestamps with their own clock. The control API can still move it.
	ClockWall ClockMode = fixtures.ClockWall
)

// WithClockMode chooses the clock mode for every load of a fixture, whatever the fixture's
// own clock setting says.
func WithClockMode(m ClockMode) Option { return func(s *Server) { s.clockMode = m } }

// Capabilities the control API offers; the suite reads them from /_fake/health and runs the
// specs that need them (docs/design.md, "Capabilities").
var Capabilities = []string{"clock", "config", "reset", "fixture", "journal", "vcall-token", "batch"}

// ControlTokenEnv is the environment variable the binary reads its control token from (the
// suite's setting control-token reads the same one, so one export serves both).
const ControlTokenEnv = "CHATCONFORM_CONTROL_TOKEN"

// InspectorHeader is the header in which the inspector page (GET /_fake/) sends the
// per-process secret it was given; the control API answers no other web page.
const InspectorHeader = "X-Chatconform-Inspector"

// WithControlToken requires every control request to carry "Authorization: Bearer <token>".
// The control API can read the JWT key's effects, mint API keys through it and reset the
// realm, so a fake reachable from other machines must have one (cmd/fakeserver turns the
// control API off on non-loopback addresses without it).
func WithControlToken(token string) Option { return func(s *Server) { s.access.Token = token } }

// WithoutControl turns the control API off: every /_fake/ path answers 404.
func WithoutControl() Option { return func(s *Server) { s.access.Off = true } }

// As returns an Actor for who: a fixture role ("owner", "member", …) or the login email of any
// active user of the realm, including one an Actor created.
func (s *Server) As(who string) (*Actor, error) {
	if u, ok := s.Fixture().UserByRole(who); ok {
		who = u.Email
	}
	id, ok := s.state.UserIDByLogin(who)
	if !ok {
		var roles []string
		for _, u := range s.Fixture().Users {
			if !slices.Contains(roles, u.Role) {
				roles = append(roles, u.Role)
			}
		}
		return nil, fmt.Errorf("fakeserver: no active user %q: name a role of the fixture (%s) or a login email", who, strings.Join(roles, ", "))
	}
	return &Actor{s: s, id: id}, nil
}
