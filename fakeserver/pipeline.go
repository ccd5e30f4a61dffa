package fakeserver

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/chatconform/chatconform/fakeserver/internal/api"
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/httpx"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// routes is the request pipeline around the route table (routes.go), then the files the API's
// URLs point at, the description and the control API. pipeline_router.go shares what it
// registers between Servers.
func (s *Server) routes(r chi.Router) {
	// The journal is outermost so that even a request that panics is recorded; faults come
	// next, outside the recoverer, so that a dropped connection is not turned into a 500.
	// The body is read before sameGeneration takes its lock (see readBodyFirst); GetHead
	// answers HEAD with the GET route, as the real server does.
	r.Use(s.journal.record, s.faults.apply, recoverer, s.limitHeaders, s.longPollDeadline, readBodyFirst, s.sameGeneration, s.featureLevel, middleware.GetHead)
	r.NotFound(s.unknownRoute)
	r.MethodNotAllowed(s.wrongMethod)

	// The API's routes join the table under their prefix rather than in a sub-router mounted
	// there: a request takes one pass through the router, not two.
	r.(*routeWalker).prefixed(api.Prefix).Group(func(r chi.Router) {
		s.api.PublicRoutes(r)

		r.Group(func(r chi.Router) {
			r.Use(s.requireAuth, s.rateLimit)
			s.api.Routes(r)
		})
	})

	s.api.FileRoutes(r)
	r.Get(describePath, s.serveDescription)

	r.Route(controlPrefix, func(r chi.Router) {
		r.Use(s.guardControl)
		s.controlRoutes(r)
	})
}

// unknownRoute answers 404 in the JSON envelope. Under /api/v1 credentials are checked
// first, so that an unauthenticated client learns nothing about which routes exist.
func (s *Server) unknownRoute(w http.ResponseWriter, r *http.Request) {
	if s.refuseUnauthenticated(w, r) {
		return
	}
	handler.WriteError(w, apierr.NotFound())
}

// wrongMethod answers 405 in the envelope, without a code and before any authentication, as
// the real server's URL dispatch does: the methods the path takes go in the Allow header and
// in allowed_methods, HEAD wherever GET is taken. (chi tells only its own default handler
// which methods matched, so the router is asked again here.)
func (s *Server) wrongMethod(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if s.serves(m, r.URL.Path) {
			allowed = append(allowed, m)
			if m == http.MethodGet {
				allowed = append(allowed, http.MethodHead)
			}
		}
	}
	if len(allowed) == 0 { // only routes of other feature levels: the path is unknown here
		s.unknownRoute(w, r)
		return
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	handler.WriteError(w, apierr.New(http.StatusMethodNotAllowed, "", "Method Not Allowed").With("allowed_methods", allowed))
}

// controlPrefix is where the control API is mounted.
const controlPrefix = "/_fake"

// serves tells whether a route takes method on path at the fake's level. chi answers every
// method at a mount point itself (/_fake, /_fake/), so there the control routes are asked.
func (s *Server) serves(method, path string) bool {
	if path == controlPrefix || path == controlPrefix+"/" {
		for _, rt := range sharedRoutes.mux.Routes() {
			if rt.Pattern == controlPrefix+"/*" && rt.SubRoutes != nil {
				return rt.SubRoutes.Match(chi.NewRouteContext(), method, "/")
			}
		}
		return false
	}
	rctx := chi.NewRouteContext()
	return sharedRoutes.mux.Match(rctx, method, path) && s.api.ServedAtLevel(method, rctx.RoutePattern())
}

func (s *Server) refuseUnauthenticated(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.URL.Path, "/api/v1/") || api.PublicPaths[r.URL.Path] {
		return false
	}
	if _, err := handler.Authenticate(r, s.state); err != nil {
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

// sameGeneration keeps an API request and a reset from interleaving (see Server.generation).
// Long polls of the event queue are left out: they may wait for seconds, and a reset answers
// them itself. The control API is left out: its reset takes the lock for writing. The body
// has been read already and the reply is written after the lock is released, so the lock is
// never held while the fake waits for a client.
func (s *Server) sameGeneration(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/v1/") || r.URL.Path == "/api/v1/events" {
			next.ServeHTTP(w, r)
			return
		}
		reply := httpx.NewBufferedReply(w.Header())
		func() {
			s.generation.RLock()
			defer s.generation.RUnlock()
			next.ServeHTTP(reply, r)
		}()
		reply.SendTo(w)
		reply.Release()
	})
}

// featureLevel notes, for the success writer, whether the fake's feature level lists ignored
// parameters (read once per request, under the same generation as the handler).
func (s *Server) featureLevel(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, st := handler.WithState(r)
		st.LevelRead, st.ReportsIgnored = true, s.state.AtLeast(realm.LevelIgnoredParametersUnsupported)
		next.ServeHTTP(w, r)
	})
}
