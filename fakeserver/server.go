// Package fakeserver is the reference fake of the team chat API: an in-memory, deterministic
// implementation that passes the whole chatconform suite and serves as a test double.
//
// In-process use mirrors net/http/httptest:
//
//	ts := fakeserver.NewTestServer()
//	defer ts.Close()
//	// ts.URL is the base URL; the API lives under ts.URL + "/api/v1".
//
// New returns the bare http.Handler for embedding in a server of your own. The control API
// under /_fake/ resets state (to what the fake was started with), loads fixtures, moves the
// virtual clock, changes server configuration and shows a journal of the requests received;
// /_fake/ itself is the inspector, a page to open in a browser.
package fakeserver

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/api"
	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/control"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// Server is the fake chat server. It is an http.Handler and safe for concurrent use.
type Server struct {
	api     *api.Service
	pipe    *pipeline.Pipeline
	control *control.Service
	clock   *clock.Clock
	state   *realm.State
	hub     *events.Hub
	journal *pipeline.Journal
	faults  pipeline.Faults

	// generation is held for reading by every API request (long polls excepted) and for
	// writing by a reset or fixture load, so that a reload never happens mid-request.
	generation sync.RWMutex

	mu sync.Mutex
	// controlSteps orders resets, fixture loads, configuration changes and clock moves: each
	// is one step, and none interleaves with another.
	controlSteps sync.Mutex
	fixture      *fixtures.Fixture
	fixtureSet   bool // WithFixture was given
	// config is read by every request: an immutable Config, replaced whole by SetConfig, read
	// without a lock or a copy (cfg).
	config atomic.Pointer[Config]
	start  startup

	access    control.Access // who may use the control API
	clockMode ClockMode      // chosen at start for every load; "" lets the fixture decide
}

// The control API reaches the Server through control.Server.
var _ control.Server = (*Server)(nil)

// Config is the server configuration that no public API can change, switched through the
// control API so that specs can see both sides of a configuration-dependent rule.
type Config = config.Config

// Defaults of the settings whose zero value means "default".
const (
	DefaultDeleteBatchSize         = config.DefaultDeleteBatchSize
	DefaultJWTAlgorithm            = config.DefaultJWTAlgorithm
	DefaultUnusedAttachmentSeconds = config.DefaultUnusedAttachmentSeconds
	DefaultJournalMaxBytes         = config.DefaultJournalMaxBytes
	DefaultMaxHeaderBytes          = config.DefaultMaxHeaderBytes
	DefaultMaxBotsPerUser          = config.DefaultMaxBotsPerUser
	DefaultUploadQuotaPerUser      = config.DefaultUploadQuotaPerUser
	DefaultUploadQuotaTotal        = config.DefaultUploadQuotaTotal
	DefaultJournalEntryMaxBytes    = config.DefaultJournalEntryMaxBytes
	DefaultBotStorageQuotaPerOwner = config.DefaultBotStorageQuotaPerOwner
	DefaultBotStorageQuotaTotal    = config.DefaultBotStorageQuotaTotal
	DefaultEventQueueMaxEvents     = config.DefaultEventQueueMaxEvents
	DefaultEventQueueIdleWall      = config.DefaultEventQueueIdleWall
	// DefaultRateLimitWindowSeconds is the real server's rate-limit window.
	DefaultRateLimitWindowSeconds = config.DefaultRateLimitWindowSeconds
)

// New returns a fake server on the default fixture unless an option says otherwise. It panics
// on options that cannot start one (Start fails the test instead).
func New(opts ...Option) *Server {
	if err := checkStartup(opts); err != nil {
		panic(err.Error())
	}
	s := &Server{fixture: defaultFixture()}
	s.journal = pipeline.NewJournal(1000, func() int64 { return s.clock.Unix() })
	for _, o := range opts {
		o(s)
	}
	s.clock = clock.New(time.Unix(s.fixture.Realm.StartTime, 0))
	s.hub = events.NewHub(s.clock, events.Options{})
	cfg, level := s.startConfig(s.fixture)
	s.SetConfig(cfg)
	s.state = realm.New(s.fixture, s.clock, s.hub)
	s.seedMessages(s.fixture) // at the fixture's level, which CheckFixture checked
	s.state.SetFeatureLevel(level)
	// The realm expires unused uploads on its clock ticks; the lifetime is server configuration.
	s.state.SetUnusedUploadLifetime(func() int64 { return int64(s.Config().UnusedAttachmentSeconds) })
	s.api = api.New(s.state, s.hub, s.clock, s.cfg, &s.generation)
	s.control = control.New(s, control.Parts{State: s.state, Hub: s.hub, Clock: s.clock, Journal: s.journal, Faults: &s.faults, Steps: &s.controlSteps},
		s.access, Capabilities)
	s.pipe = pipeline.New(s.state, s.api, s.cfg, &s.generation, s.journal, &s.faults, outsideRoutes, s.control)
	s.startClock(s.fixture)
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.pipe.ServeHTTP(w, r) }

// defaultFixture is the embedded default fixture, parsed once and shared by every Server that
// starts on it: the realm copies what it loads, and nothing changes a fixture once parsed.
var defaultFixture = sync.OnceValue(fixtures.Default)

// Fixture returns the fixture the server was last loaded with. Servers share it (the default
// one, or one given to several): read it, do not change it.
func (s *Server) Fixture() *fixtures.Fixture {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fixture
}

// Reset returns to the state the fake was started with, on the current fixture: its realm and
// clock, and the configuration and feature level of the start (WithConfig, WithFeatureLevel,
// ParseSettings); the journal, faults and event queues are emptied.
func (s *Server) Reset() {
	s.controlSteps.Lock()
	defer s.controlSteps.Unlock()
	s.load(s.Fixture())
}

// LoadFixture replaces the whole state with a fixture's, as a reset does, and makes it the
// fixture later resets return to; the start-up configuration and feature level still apply.
func (s *Server) LoadFixture(f *fixtures.Fixture) {
	s.controlSteps.Lock()
	defer s.controlSteps.Unlock()
	s.load(f)
}

// load is a reset to f. The caller holds controlSteps.
func (s *Server) load(f *fixtures.Fixture) {
	// No API request may straddle a reload: one that authenticated against the old realm would
	// find its user gone in the new one.
	s.generation.Lock()
	defer s.generation.Unlock()
	s.mu.Lock()
	s.fixture = f
	s.mu.Unlock()
	cfg, level := s.startConfig(f)
	s.SetConfig(cfg)
	s.startClock(f)
	s.state.Load(f)
	s.seedMessages(f)
	s.state.SetFeatureLevel(level)
	s.hub.Reset()
	s.journal.Clear()
	s.ClearFaults()
	s.pipe.Reset()
	s.api.Reset()
}

// CheckFixture tells whether a fixture loads: what fixtures validates (again, for a fixture
// built in Go), then whether its messages and reactions go through the realm's rules (an emoji
// name it knows, …). The control API, the binary and Start check every fixture they are
// given; New and LoadFixture panic on one that does not load.
func CheckFixture(f *fixtures.Fixture) error { return control.CheckFixture(f) }

func (s *Server) seedMessages(f *fixtures.Fixture) {
	if err := s.state.SeedMessages(f); err != nil {
		panic("fakeserver: a fixture that does not load (check it with CheckFixture): " + err.Error())
	}
}

// Clock returns the virtual time.
func (s *Server) Clock() time.Time { return s.clock.Now() }

// ClockMode reports how the clock moves now.
func (s *Server) ClockMode() ClockMode { return ClockMode(s.control.ClockMode()) }

// startClock sets the clock for a fixture (re)load: at the fixture's start time, then
// running from the wall time when the server's mode, or else the fixture's, says so.
func (s *Server) startClock(f *fixtures.Fixture) {
	s.clock.Set(time.Unix(f.Realm.StartTime, 0))
	mode := s.clockMode
	if mode == "" {
		mode = ClockMode(f.Realm.Clock)
	}
	s.control.SetClockMode(string(mode))
}

// AdvanceClock moves the virtual time forward.
func (s *Server) AdvanceClock(d time.Duration) time.Time {
	now := s.clock.Advance(d)
	s.state.Tick()
	return now
}

// Config returns the current server configuration.
func (s *Server) Config() Config { return *s.cfg() }

// cfg is the current configuration, shared: never change it.
func (s *Server) cfg() *Config { return s.config.Load() }

// SetConfig replaces the server configuration; settings left zero take their defaults.
func (s *Server) SetConfig(c Config) {
	c = c.WithDefaults()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.config.Store(&c)
	s.hub.SetPollTimeout(time.Duration(c.EventPollTimeoutSeconds) * time.Second)
	s.hub.SetIdleTimeout(time.Duration(c.EventQueueIdleSeconds) * time.Second)
	s.hub.SetBounds(c.EventQueueMaxEvents, time.Duration(c.EventQueueIdleWallSeconds)*time.Second)
	s.journal.SetBounds(c.JournalMaxBytes, c.JournalEntryMaxBytes)
}

// Close answers every waiting long poll at once, so an http.Server serving the fake can shut
// down without waiting out the poll timeout (register it with http.Server.RegisterOnShutdown).
func (s *Server) Close() {
	s.control.Close()
	s.hub.Close()
}

// Footprint is what a realm holds: users, channels, messages, subscriptions per user.
type Footprint = realm.Footprint

// Footprint counts what the realm holds now, for measuring what a client run leaves behind.
func (s *Server) Footprint() Footprint { return s.state.Footprint() }
