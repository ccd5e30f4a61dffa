package api

import (
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"
)

// levelGate is the span of feature levels in which the real server has a route: from the
// level that added it (0: before the oldest level the fake serves) up to, not including, the
// level that removed it (0: never removed).
type levelGate struct{ from, until int }

func (g levelGate) serves(level int) bool {
	return level >= g.from && (g.until == 0 || level < g.until)
}

// routeTable registers the API's routes; gates, when not nil, records the feature levels of
// the routes served only at some ("METHOD pattern"): see routeGates.
type routeTable struct{ gates map[string]levelGate }

// gated adds a route the real server has only at some feature levels. Outside them the request
// is answered as one the route table has no route for (see AnswerUnserved): 405 where the path
// takes other methods at the fake's level (DELETE /user_groups/{id} from 294, where PATCH
// stays), else the unknown-route answer; a wrong method's Allow header leaves the method out.
func (t routeTable) gated(r chi.Router, method, pattern string, g levelGate, o op) {
	if t.gates != nil { // registering for routeGates
		t.gates[method+" "+Prefix+pattern] = g
	}
	h := serve(o)
	r.Method(method, pattern, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s := serviceOf(req)
		if g.serves(s.realm().Settings().FeatureLevel) {
			h(w, req)
			return
		}
		s.unserved(w, req)
	}))
}

// AnswerUnserved sets how a request to a route not served at the fake's level is answered:
// as the pipeline answers a method or path its route table lacks (New's default: 404).
func (s *Service) AnswerUnserved(h http.HandlerFunc) { s.unserved = h }

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
	t := routeTable{gates: map[string]levelGate{}}
	r := chi.NewRouter()
	t.publicRoutes(r)
	t.routes(r)
	return t.gates
})
