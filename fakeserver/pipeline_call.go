package fakeserver

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// call is one API request as a handler sees it: the authenticated user (zero for public
// endpoints) and the decoded parameters.
type call struct {
	r    *http.Request
	p    *params.Params
	user realm.User
	// params is where p points: the call holds the parameters, allocated with it.
	params params.Params
	// strict refuses parameters the handler does not read (the control API: a misspelled
	// setting must not pass for a change).
	strict bool
}

// operation is a handler: it reads parameters, calls the domain and returns the fields of
// the success response or an error. It never writes to the response itself.
type operation func(c *call) (fields, error)

// serve adapts an operation to HTTP: parameters are decoded first, and the operation's
// result goes through the one success writer or the one error writer.
func serve(op operation) http.HandlerFunc { return serveCall(op, false) }

func serveCall(op operation, strict bool) http.HandlerFunc {
	return serveWith(op, strict, writeSuccess)
}

// serveTyped adapts an operation whose success reply has a fixed shape: a struct holding the
// reply's fields, encoded without building a map (hot routes: the own user, a message, a send).
func serveTyped[T any](op func(c *call) (T, error)) http.HandlerFunc {
	return serveWith(op, false, writeTyped[T])
}

func serveWith[T any](op func(c *call) (T, error), strict bool, write func(http.ResponseWriter, *params.Params, T)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		st := stateOf(r)
		c := &call{r: r, strict: strict}
		c.p = &c.params
		var perr error
		if body, ok := st.unreadBody(r); ok {
			perr = params.ParseRead(c.p, r, body)
		} else {
			c.p, perr = params.Parse(r)
		}
		if perr != nil {
			writeError(w, perr)
			return
		}
		p := c.p
		if u := st.user; u != nil {
			c.user = *u
		}
		f, err := op(c)
		if err == nil && strict {
			err = c.done() // a handler that reads no parameter still refuses one
		}
		if err != nil {
			writeError(w, err)
			return
		}
		if !reportsIgnored(r) || ignoredUnlistedFor(r) {
			p = nil // below the level, a success reply never lists ignored parameters
		}
		write(w, p, f)
	}
}

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
func (s *Server) gated(r chi.Router, method, pattern string, g levelGate, op operation) {
	s.gates[method+" "+apiPrefix+pattern] = g
	r.Method(method, pattern, serve(func(c *call) (fields, error) {
		if !g.serves(s.realm().Settings().FeatureLevel) {
			return nil, apierr.NotFound()
		}
		return op(c)
	}))
}

// servedAtLevel tells whether the route of this method and pattern (as chi reports it) is
// served at the fake's feature level.
func (s *Server) servedAtLevel(method, pattern string) bool {
	g, ok := s.gates[method+" "+pattern]
	return !ok || g.serves(s.realm().Settings().FeatureLevel)
}

// featureLevel notes, for the success writer, whether the fake's feature level lists ignored
// parameters (read once per request, under the same generation as the handler).
func (s *Server) featureLevel(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, st := withRequestState(r)
		st.levelRead, st.reportsIgnored = true, s.realm().AtLeast(realm.LevelIgnoredParametersUnsupported)
		next.ServeHTTP(w, r)
	})
}

// reportsIgnored tells whether the request is answered with ignored_parameters_unsupported.
func reportsIgnored(r *http.Request) bool {
	st := stateOf(r)
	return st.reportsIgnored || !st.levelRead
}

// withUser notes the authenticated user in the request's state.
func withUser(r *http.Request, u realm.User) *http.Request {
	r, st := withRequestState(r)
	st.authenticated = u
	st.user = &st.authenticated
	return r
}

// adminOnly enforces the administrator role before any parameter is read, as the real
// server's decorator does.
func adminOnly(op operation) operation {
	return func(c *call) (fields, error) {
		if !c.user.IsAdmin() && !(mutation.On("delete-topic-by-moderators") && c.user.IsModerator() && deletesTopic(c)) {
			if mutation.On("delete-topic-refused-but-applied") && deletesTopic(c) {
				_, _ = op(c)
			}
			return nil, apierr.MustBeAdmin
		}
		return op(c)
	}
}

// humansOnly refuses bots before any parameter is read.
func humansOnly(op operation) operation {
	return func(c *call) (fields, error) {
		if c.user.IsBot {
			return nil, apierr.BadRequest("This endpoint does not accept bot requests.")
		}
		return op(c)
	}
}

// pathID reads an integer path parameter. The route pattern already guarantees digits, so
// the only failure left is a number too large, which names nothing that exists.
func (c *call) pathID(name string, notFound error) (int, error) {
	id, err := strconv.Atoi(chi.URLParam(c.r, name))
	if err != nil || id < 0 {
		return 0, notFound
	}
	return id, nil
}

// readByID answers a read of what one path ID names, with no other parameter: the ID
// (notFound when too large to name anything), then read's answer for the requester under key.
func readByID[T any](c *call, name string, notFound error, key string, read func(requesterID, id int) (T, error)) (fields, error) {
	id, err := c.pathID(name, notFound)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	v, err := read(c.user.ID, id)
	if err != nil {
		return nil, err
	}
	return fields{key: v}, nil
}

// done returns the parameter error if any, so handlers can end with one check; in a strict
// call, a parameter the handler did not read is one.
func (c *call) done() error {
	if err := c.p.Err(); err != nil {
		return err
	}
	if unknown := c.p.Unsupported(); c.strict && len(unknown) > 0 {
		return apierr.BadRequest("Unknown setting: %s", strings.Join(unknown, ", ")).With("unknown", unknown)
	}
	return nil
}
