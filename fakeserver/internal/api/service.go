// Package api is the fake's API: its handlers, one file per operation or resource, named as
// the operation's spec in specs/ and its domain file in internal/realm, and the one route
// table (routes.go). A handler translates HTTP to calls on the domain and back, through the
// adapter of package handler; it knows nothing of the pipeline around it or of the control API.
package api

import (
	"net/http"
	"sync"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/httpx"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// Service is what the handlers use, and nothing more: the realm, its event queues, the
// virtual clock and the server configuration, with the handlers' own state (temporary upload
// URLs, password attempts).
type Service struct {
	state  *realm.State
	hub    *events.Hub
	clock  *clock.Clock
	config func() *config.Config
	// generation is held for reading by the file routes, outside /api/v1, whose requests
	// the pipeline does not hold apart from a reset itself.
	generation *sync.RWMutex

	logins  httpx.Limiter[string] // password attempts per username
	uploads temporaryUploads
	// unserved answers a request to a route outside the levels that serve it (gated).
	unserved http.HandlerFunc
}

// New returns the handlers of one fake: its realm, event hub and clock, its current
// configuration (shared: never changed), and the lock a reset takes for writing.
func New(state *realm.State, hub *events.Hub, clk *clock.Clock, cfg func() *config.Config, generation *sync.RWMutex) *Service {
	return &Service{state: state, hub: hub, clock: clk, config: cfg, generation: generation,
		logins:   httpx.Limiter[string]{MaxKeys: loginKeysKept},
		unserved: func(w http.ResponseWriter, _ *http.Request) { handler.WriteError(w, apierr.NotFound()) }}
}

// Reset forgets what the handlers keep of the realm before a reset: temporary URLs, whose path
// ids may name other files after it, and password attempts.
func (s *Service) Reset() {
	s.uploads.forget()
	s.logins.Reset()
}

func (s *Service) realm() *realm.State { return s.state }

// Config returns the current server configuration.
func (s *Service) Config() config.Config { return *s.config() }

// cfg is the current configuration, shared: never change it.
func (s *Service) cfg() *config.Config { return s.config() }

// batching is how batched operations (delete topic, mark all as read) split their work.
func (s *Service) batching() realm.Batching {
	c := s.Config()
	if mutation.On("variant-small-batches") && c.MaxBatchesPerRequest == 0 {
		return realm.Batching{BatchSize: 1, MaxBatches: 1}
	}
	return realm.Batching{BatchSize: c.DeleteBatchSize, MaxBatches: c.MaxBatchesPerRequest}
}

// Authentication attempts are limited as on the real server (its authenticate_by_username
// rule): at most 5 password attempts for one username in 30 minutes, whether they succeed or
// not; a success forgets the attempts before it. The fake applies the rule while rate limiting
// is on.
// Attempts count per account, not per spelling: the key is the email as authentication
// reads it (realm.LoginKey), at most 320 bytes, and the limiter keeps at most loginKeysKept
// keys (about 5 MB), whatever number of usernames is tried.
const (
	loginAttemptsLimit  = 5
	loginAttemptsWindow = 30 * time.Minute
	loginKeysKept       = 10_000
)

// loginAttempt counts a password attempt for username while rate limiting is on, and refuses
// one over the real server's limit, or a username that cannot be an account's; done tells it
// whether the attempt succeeded.
func (s *Service) loginAttempt(username string) (done func(ok bool), err error) {
	key, err := realm.LoginKey(username)
	if err != nil {
		return nil, err
	}
	if s.cfg().RateLimitRequests <= 0 {
		return func(bool) {}, nil
	}
	if d := s.logins.Take(key, loginAttemptsLimit, loginAttemptsWindow); !d.Allowed {
		return nil, handler.RateLimitHit(d.Wait)
	}
	return func(ok bool) {
		if ok {
			s.logins.Forget(key)
		}
	}, nil
}

// forget drops every temporary URL: after a reset their path ids may name other files.
func (t *temporaryUploads) forget() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tokens = nil
}

// The route table is registered once per process and shared by every fake (internal/pipeline/router.go):
// its handlers hold no Service, but find the serving fake's in the request's context, under
// ServiceKey, so that a new fake builds no handler of its own.

// ServiceKey is the context key under which a request carries the Service serving it.
type ServiceKey struct{}

func serviceOf(r *http.Request) *Service { return r.Context().Value(ServiceKey{}).(*Service) }

// op is an operation of the serving Service: a method expression such as (*Service).register.
type op func(s *Service, c *handler.Call) (handler.Fields, error)

// serve adapts an operation to the handler every fake shares.
func serve(o op) http.HandlerFunc {
	return handler.Serve(func(c *handler.Call) (handler.Fields, error) { return o(serviceOf(c.R), c) })
}

// typed is serve for an operation whose success reply has a fixed shape (handler.ServeTyped).
func typed[T any](o func(s *Service, c *handler.Call) (T, error)) http.HandlerFunc {
	return handler.ServeTyped(func(c *handler.Call) (T, error) { return o(serviceOf(c.R), c) })
}

// serveFile adapts a handler of the serving Service's files (FileRoutes).
func serveFile(h func(s *Service, w http.ResponseWriter, r *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { h(serviceOf(r), w, r) }
}
