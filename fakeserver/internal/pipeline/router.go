package pipeline

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/chatconform/chatconform/fakeserver/internal/api"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/go-chi/chi/v5"
)

// The route table is built once per process and shared by every Server: building a chi router
// costs about as much as everything else a new fake does (regular expressions compiled per
// route, sub-routers walked on every mount). Its handlers and middlewares are dispatchers that
// call the serving Server's own, by their place in the table: routes() runs once against the
// real router (building) and once per Server against a recorder (routeWalker without a
// router), which keeps that Server's handlers and middlewares in the same order.

// routeTable is a chi router whose handlers and middlewares dispatch to the serving Server's.
type routeTable struct {
	once     sync.Once
	mux      *chi.Mux
	patterns []routeKey // of each handler, to check that every Pipeline recorded the same table
	mws      int
}

// sharedRoutes is the process's route table, of routes().
var sharedRoutes routeTable

// serverRoutes is one Server's part of the table: its handlers and its middlewares, each
// already wrapped around the table's next handler.
type serverRoutes struct {
	handlers []http.Handler
	mws      []http.Handler
}

// routeScope is a request's context on its way through the shared table: the Server serving it,
// chi's routing context, where the table goes on after the middleware running now, and the
// request's state (internal/handler/request_state.go), held here so that the middlewares that fill it
// copy no request to add it.
type routeScope struct {
	context.Context
	p     *Pipeline
	rctx  *chi.Context
	next  http.Handler
	state handler.State
}

// goOn is the handler every Server's middlewares wrap. The table's dispatcher of a middleware
// leaves its next handler in the scope before it runs the Server's, which calls goOn at most
// once, before any later middleware runs (as chi's middlewares do): one field is enough.
var goOn http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	sc := scopeOf(r)
	next := sc.next
	sc.next = nil
	next.ServeHTTP(w, r)
})

type routeScopeKey struct{}

func (sc *routeScope) Value(key any) any {
	switch key {
	case chi.RouteCtxKey:
		return sc.rctx
	case routeScopeKey{}:
		return sc
	case handler.StateKey{}:
		return &sc.state
	case api.ServiceKey{}:
		return sc.p.api
	case OutsideKey{}:
		return sc.p.outsidePart
	}
	return sc.Context.Value(key)
}

func scopeOf(r *http.Request) *routeScope { return r.Context().Value(routeScopeKey{}).(*routeScope) }

var routeContexts = sync.Pool{New: func() any { return chi.NewRouteContext() }}

// serve serves a request through the table on behalf of s.
func (t *routeTable) serve(p *Pipeline, w http.ResponseWriter, r *http.Request) {
	rctx := routeContexts.Get().(*chi.Context)
	rctx.Reset()
	rctx.Routes = t.mux
	t.mux.ServeHTTP(w, r.WithContext(&routeScope{Context: r.Context(), p: p, rctx: rctx}))
	routeContexts.Put(rctx)
}

// bind records s's handlers and middlewares, which routes registers, building the table on
// first use.
func (t *routeTable) bind(p *Pipeline, routes func(chi.Router)) {
	built := false
	t.once.Do(func() {
		mux := chi.NewRouter()
		routes(&routeWalker{p: p, t: t, build: mux})
		t.mux = mux
		built = true
	})
	if built {
		return
	}
	p.table = serverRoutes{handlers: make([]http.Handler, 0, len(t.patterns)), mws: make([]http.Handler, 0, t.mws)}
	routes(&routeWalker{p: p, t: t})
	if len(p.table.handlers) != len(t.patterns) || len(p.table.mws) != t.mws {
		panic("fakeserver: routes() registered another table than the shared one; it must not depend on the Pipeline")
	}
}

// routeWalker is the chi.Router routes() registers on. It records the Server's handlers and
// middlewares in order and, while the shared table is built, registers dispatchers to them on
// the real router.
type routeWalker struct {
	p     *Pipeline
	t     *routeTable
	build chi.Router // nil when only recording
	// prefix goes before every pattern registered (prefixed).
	prefix string
	// shared: the handlers and middlewares registered serve every Server alike (see static),
	// and go on the table as they are.
	shared bool
}

// static registers routes whose handlers and middlewares hold no Server: they find the
// serving Server's parts in the request's context (the API's Service under api.ServiceKey).
// They go on the table as they are while it is built, and a new Server records nothing of
// them: the API's routes, most of the table, cost a new fake nothing.
func (w *routeWalker) static(routes func(chi.Router)) {
	if w.build != nil {
		routes(&routeWalker{p: w.p, t: w.t, build: w.build, prefix: w.prefix, shared: true})
	}
}

// prefixed is the walker registering its routes under prefix, in the same router: a group
// of routes with one path prefix, where chi's Route would mount a sub-router.
func (w *routeWalker) prefixed(prefix string) *routeWalker {
	return &routeWalker{p: w.p, t: w.t, build: w.build, prefix: w.prefix + prefix, shared: w.shared}
}

// routeKey is where a handler is in the table: a method ("" for any, or what the handler is
// for, as "not found") and a pattern.
type routeKey struct{ method, pattern string }

func (w *routeWalker) handler(key routeKey, h http.Handler) http.Handler {
	if w.shared {
		return h
	}
	i := len(w.p.table.handlers)
	w.p.table.handlers = append(w.p.table.handlers, h)
	if w.build == nil {
		if i >= len(w.t.patterns) || w.t.patterns[i] != key {
			panic(fmt.Sprintf("fakeserver: routes() registered %v as handler %d, not what the shared table has; it must not depend on the Pipeline", key, i))
		}
		return nil
	}
	w.t.patterns = append(w.t.patterns, key)
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		scopeOf(r).p.table.handlers[i].ServeHTTP(rw, r)
	})
}

func (w *routeWalker) middlewares(mws []func(http.Handler) http.Handler) []func(http.Handler) http.Handler {
	if w.shared {
		return mws
	}
	var out []func(http.Handler) http.Handler
	for _, mw := range mws {
		j := len(w.p.table.mws)
		if w.build != nil {
			w.t.mws++
			out = append(out, func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
					sc := scopeOf(r)
					sc.next = next
					sc.p.table.mws[j].ServeHTTP(rw, r)
				})
			})
		}
		w.p.table.mws = append(w.p.table.mws, mw(goOn))
	}
	return out
}

func (w *routeWalker) sub(build chi.Router) *routeWalker {
	return &routeWalker{p: w.p, t: w.t, build: build, prefix: w.prefix, shared: w.shared}
}

func (w *routeWalker) Use(mws ...func(http.Handler) http.Handler) {
	if out := w.middlewares(mws); w.build != nil {
		w.build.Use(out...)
	}
}

func (w *routeWalker) With(mws ...func(http.Handler) http.Handler) chi.Router {
	out := w.middlewares(mws)
	if w.build == nil {
		return w
	}
	return w.sub(w.build.With(out...))
}

func (w *routeWalker) Group(fn func(r chi.Router)) chi.Router {
	if w.build == nil {
		fn(w)
		return w
	}
	var inner *routeWalker
	w.build.Group(func(r chi.Router) { inner = w.sub(r); fn(inner) })
	return inner
}

func (w *routeWalker) Route(pattern string, fn func(r chi.Router)) chi.Router {
	if w.prefix != "" {
		panic("fakeserver: a sub-router under a prefixed group: use prefixed")
	}
	if w.build == nil {
		fn(w)
		return w
	}
	var inner *routeWalker
	w.build.Route(pattern, func(r chi.Router) { inner = w.sub(r); fn(inner) })
	return inner
}

func (w *routeWalker) Mount(pattern string, h http.Handler) {
	pattern = w.prefix + pattern
	if d := w.handler(routeKey{"mount", pattern}, h); d != nil {
		w.build.Mount(pattern, d)
	}
}

func (w *routeWalker) Method(method, pattern string, h http.Handler) {
	pattern = w.prefix + pattern
	if d := w.handler(routeKey{method, pattern}, h); d != nil {
		w.build.Method(method, pattern, d)
	}
}

func (w *routeWalker) Handle(pattern string, h http.Handler) {
	pattern = w.prefix + pattern
	if d := w.handler(routeKey{"", pattern}, h); d != nil {
		w.build.Handle(pattern, d)
	}
}

func (w *routeWalker) HandleFunc(pattern string, h http.HandlerFunc) { w.Handle(pattern, h) }
func (w *routeWalker) MethodFunc(method, pattern string, h http.HandlerFunc) {
	w.Method(method, pattern, h)
}
func (w *routeWalker) Connect(p string, h http.HandlerFunc) { w.Method(http.MethodConnect, p, h) }
func (w *routeWalker) Delete(p string, h http.HandlerFunc)  { w.Method(http.MethodDelete, p, h) }
func (w *routeWalker) Get(p string, h http.HandlerFunc)     { w.Method(http.MethodGet, p, h) }
func (w *routeWalker) Head(p string, h http.HandlerFunc)    { w.Method(http.MethodHead, p, h) }
func (w *routeWalker) Options(p string, h http.HandlerFunc) { w.Method(http.MethodOptions, p, h) }
func (w *routeWalker) Patch(p string, h http.HandlerFunc)   { w.Method(http.MethodPatch, p, h) }
func (w *routeWalker) Post(p string, h http.HandlerFunc)    { w.Method(http.MethodPost, p, h) }
func (w *routeWalker) Put(p string, h http.HandlerFunc)     { w.Method(http.MethodPut, p, h) }
func (w *routeWalker) Query(p string, h http.HandlerFunc)   { w.Method("QUERY", p, h) }
func (w *routeWalker) Trace(p string, h http.HandlerFunc)   { w.Method(http.MethodTrace, p, h) }

func (w *routeWalker) NotFound(h http.HandlerFunc) {
	if d := w.handler(routeKey{"not found", ""}, h); d != nil {
		w.build.NotFound(d.ServeHTTP)
	}
}

func (w *routeWalker) MethodNotAllowed(h http.HandlerFunc) {
	if d := w.handler(routeKey{"method not allowed", ""}, h); d != nil {
		w.build.MethodNotAllowed(d.ServeHTTP)
	}
}

// The queries of chi.Routes and serving go to the shared table: the walker only registers.

func (w *routeWalker) ServeHTTP(rw http.ResponseWriter, r *http.Request) { w.t.serve(w.p, rw, r) }
func (w *routeWalker) Routes() []chi.Route                               { return w.t.mux.Routes() }
func (w *routeWalker) Middlewares() chi.Middlewares                      { return w.t.mux.Middlewares() }
func (w *routeWalker) Match(rctx *chi.Context, method, path string) bool {
	return w.t.mux.Match(rctx, method, path)
}
func (w *routeWalker) Find(rctx *chi.Context, method, path string) string {
	return w.t.mux.Find(rctx, method, path)
}
