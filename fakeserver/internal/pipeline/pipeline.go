package pipeline

import (
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/chatconform/chatconform/fakeserver/internal/api"
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/httpx"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// Pipeline is the request pipeline of one fake: the stages every request passes, in order
// (routes), around the API's route table, the files its URLs point at, and the routes outside
// the API the assembly adds (the description and the control API).
type Pipeline struct {
	state       *realm.State
	api         *api.Service
	config      func() *config.Config
	generation  *sync.RWMutex
	journal     *Journal
	faults      *Faults
	outside     func(chi.Router)
	outsidePart any                // what the outside routes serve from (OutsideKey)
	limiter     httpx.Limiter[int] // API requests per user
	table       serverRoutes       // its handlers in the shared route table
}

// New returns the pipeline of one fake around its API. generation is held for reading by
// every API request (long polls excepted) and for writing by a reset; outside adds the routes
// outside the API (the control API under ControlPrefix), the same for every fake: their
// handlers find this fake's outsidePart in the request's context under OutsideKey.
func New(state *realm.State, a *api.Service, cfg func() *config.Config, generation *sync.RWMutex, journal *Journal, faults *Faults, outside func(chi.Router), outsidePart any) *Pipeline {
	p := &Pipeline{state: state, api: a, config: cfg, generation: generation, journal: journal, faults: faults, outside: outside, outsidePart: outsidePart}
	a.AnswerUnserved(p.wrongMethod)
	sharedRoutes.bind(p, p.routes)
	return p
}

// ServeHTTP implements http.Handler.
func (p *Pipeline) ServeHTTP(w http.ResponseWriter, r *http.Request) { sharedRoutes.serve(p, w, r) }

// Reset forgets the rate limiter's counts.
func (p *Pipeline) Reset() { p.limiter.Reset() }

// Routes is the route table every fake of the process shares, once one is built.
func Routes() chi.Routes { return sharedRoutes.mux }

// routes is the request pipeline around the route table (internal/api/routes.go), then the files the
// API's URLs point at and the routes outside the API. router.go shares what it registers
// between fakes.
func (p *Pipeline) routes(r chi.Router) {
	// The journal is outermost so that even a request that panics is recorded; faults come
	// next, outside the recoverer, so that a dropped connection is not turned into a 500.
	// The body is read before sameGeneration takes its lock (see readBodyFirst); GetHead
	// answers HEAD with the GET route, as the real server does.
	r.Use(p.journal.Record, p.faults.Apply, recoverer, p.limitHeaders, p.longPollDeadline, readBodyFirst, p.sameGeneration, p.featureLevel, middleware.GetHead)
	r.NotFound(p.unknownRoute)
	r.MethodNotAllowed(p.wrongMethod)

	// The API's routes join the table under their prefix rather than in a sub-router mounted
	// there: a request takes one pass through the router, not two.
	r.(*routeWalker).prefixed(api.Prefix).Group(func(r chi.Router) {
		r.(*routeWalker).static(api.PublicRoutes)

		r.Group(func(r chi.Router) {
			r.Use(p.requireAuth, p.rateLimit)
			r.(*routeWalker).static(api.Routes)
		})
	})

	r.(*routeWalker).static(api.FileRoutes)
	r.(*routeWalker).static(p.outside)
}

// unknownRoute answers 404 in the JSON envelope. Under /api/v1 credentials are checked
// first, so that an unauthenticated client learns nothing about which routes exist.
func (p *Pipeline) unknownRoute(w http.ResponseWriter, r *http.Request) {
	if p.refuseUnauthenticated(w, r) {
		return
	}
	handler.WriteError(w, apierr.NotFound())
}

// wrongMethod answers 405 in the envelope, without a code and before any authentication, as
// the real server's URL dispatch does: the methods the path takes go in the Allow header and
// in allowed_methods, HEAD wherever GET is taken. (chi tells only its own default handler
// which methods matched, so the router is asked again here.)
func (p *Pipeline) wrongMethod(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if p.serves(m, r.URL.Path) {
			allowed = append(allowed, m)
			if m == http.MethodGet {
				allowed = append(allowed, http.MethodHead)
			}
		}
	}
	if len(allowed) == 0 { // only routes of other feature levels: the path is unknown here
		p.unknownRoute(w, r)
		return
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	handler.WriteError(w, apierr.New(http.StatusMethodNotAllowed, "", "Method Not Allowed").With("allowed_methods", allowed))
}

// OutsideKey is the context key under which a request carries the part of its fake the routes
// outside the API serve from (pipeline.New's outsidePart).
type OutsideKey struct{}

// ControlPrefix is where the control API is mounted.
const ControlPrefix = "/_fake"

// serves tells whether a route takes method on path at the fake's level. chi answers every
// method at a mount point itself (/_fake, /_fake/), so there the control routes are asked.
func (p *Pipeline) serves(method, path string) bool {
	if path == ControlPrefix || path == ControlPrefix+"/" {
		for _, rt := range sharedRoutes.mux.Routes() {
			if rt.Pattern == ControlPrefix+"/*" && rt.SubRoutes != nil {
				return rt.SubRoutes.Match(chi.NewRouteContext(), method, "/")
			}
		}
		return false
	}
	rctx := chi.NewRouteContext()
	return sharedRoutes.mux.Match(rctx, method, path) && p.api.ServedAtLevel(method, rctx.RoutePattern())
}

func (p *Pipeline) refuseUnauthenticated(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.URL.Path, "/api/v1/") || api.PublicPaths[r.URL.Path] {
		return false
	}
	if _, err := handler.Authenticate(r, p.state); err != nil {
		handler.WriteError(w, err)
		return true
	}
	return false
}

// recoverer turns a panic into the real server's 500 envelope. The suite proves no input
// reaches it; it exists so that a bug shows as a clear error rather than a dropped connection.
func recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(v)
				}
				handler.WriteError(w, nil)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// sameGeneration keeps an API request and a reset from interleaving (see New: generation).
// Long polls of the event queue are left out: they may wait for seconds, and a reset answers
// them itself. The control API is left out: its reset takes the lock for writing. The body
// has been read already and the reply is written after the lock is released, so the lock is
// never held while the fake waits for a client.
func (p *Pipeline) sameGeneration(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/v1/") || r.URL.Path == "/api/v1/events" {
			next.ServeHTTP(w, r)
			return
		}
		reply := httpx.NewBufferedReply(w.Header())
		func() {
			p.generation.RLock()
			defer p.generation.RUnlock()
			next.ServeHTTP(reply, r)
		}()
		reply.SendTo(w)
		reply.Release()
	})
}

// featureLevel notes, for the success writer, whether the fake's feature level lists ignored
// parameters (read once per request, under the same generation as the handler).
func (p *Pipeline) featureLevel(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, st := handler.WithState(r)
		st.LevelRead, st.ReportsIgnored = true, p.state.AtLeast(realm.LevelIgnoredParametersUnsupported)
		next.ServeHTTP(w, r)
	})
}
