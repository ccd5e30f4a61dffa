package api

import (
	"sync"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/go-chi/chi/v5"
)

// levelGate is the span of feature levels in which the real server has a route: from the
// level that added it (0: before the oldest level the fake serves) up to, not including, the
// level that removed it (0: never removed).
type levelGate struct{ from, until int }

func (g levelGate) serves(level int) bool {
	return level >= g.from && (g.until == 0 || level < g.until)
}

// gated adds a route the real server has only at some feature levels. Outside them the route
// is unknown: the request gets the unknown-route answer (authentication already passed), and a
// wrong method's Allow header leaves the method out (see wrongMethod).
func (s *Service) gated(r chi.Router, method, pattern string, g levelGate, op handler.Operation) {
	if s.gates != nil { // registering for routeGates
		s.gates[method+" "+Prefix+pattern] = g
	}
	r.Method(method, pattern, handler.Serve(func(c *handler.Call) (handler.Fields, error) {
		if !g.serves(s.realm().Settings().FeatureLevel) {
			return nil, apierr.NotFound()
		}
		return op(c)
	}))
}

// ServedAtLevel tells whether the route of this method and pattern (as chi reports it) is
// served at the fake's feature level.
func (s *Service) ServedAtLevel(method, pattern string) bool {
	return ServedAt(s.realm().Settings().FeatureLevel, method, pattern)
}

// ServedAt tells whether the route of this method and pattern is served at a feature level.
func ServedAt(level int, method, pattern string) bool {
	g, ok := routeGates()[method+" "+pattern]
	return !ok || g.serves(level)
}

// routeGates are the feature levels of the routes served only at some ("METHOD pattern"),
// the same for every fake: the route table's, registered once on a router of its own.
var routeGates = sync.OnceValue(func() map[string]levelGate {
	s := &Service{gates: map[string]levelGate{}}
	r := chi.NewRouter()
	s.PublicRoutes(r)
	s.Routes(r)
	return s.gates
})
