// Package handler is the adapter every layer of the fake shares: an operation (a handler that
// reads parameters, calls the domain and returns fields or an error) is served over HTTP by
// Serve, its reply written by the one success writer or the one error writer. The request's
// state, which the pipeline fills on the way in, is here too, so that the API's handlers, the
// pipeline and the control API all stand on this package and none on another.
package handler

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// Call is one API request as a handler sees it: the authenticated user (the zero user for
// public endpoints) and the decoded parameters.
type Call struct {
	R *http.Request
	P *params.Params
	// User is the authenticated user, as the request's state holds it (never nil: noUser for
	// none). A handler reads it and never changes it.
	User *realm.User
	// params is where P points: the call holds the parameters, allocated with it.
	params params.Params
	// strict refuses parameters the handler does not read (the control API: a misspelled
	// setting must not pass for a change), and words bad values plainly (params.PlainValues).
	strict bool
}

// Operation is a handler: it reads parameters, calls the domain and returns the fields of
// the success response or an error. It never writes to the response itself.
type Operation func(c *Call) (Fields, error)

// Serve adapts an operation to HTTP: parameters are decoded first, and the operation's
// result goes through the one success writer or the one error writer.
func Serve(op Operation) http.HandlerFunc { return serveWith(op, false, writeSuccess) }

// ServeStrict is Serve for a call that refuses parameters the operation does not read.
func ServeStrict(op Operation) http.HandlerFunc { return serveWith(op, true, writeSuccess) }

// ServeTyped adapts an operation whose success reply has a fixed shape: a struct holding the
// reply's fields, encoded without building a map (hot routes: the own user, a message, a send).
func ServeTyped[T any](op func(c *Call) (T, error)) http.HandlerFunc {
	return serveWith(op, false, writeTyped[T])
}

func serveWith[T any](op func(c *Call) (T, error), strict bool, write func(http.ResponseWriter, *params.Params, T)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		st := StateOf(r)
		c := &Call{R: r, strict: strict}
		c.P = &c.params
		var perr error
		if body, ok := st.UnreadBody(r); ok {
			perr = params.ParseRead(c.P, r, body)
		} else {
			c.P, perr = params.Parse(r)
		}
		if perr != nil {
			WriteError(w, perr)
			return
		}
		if strict { // the control API: its values are plain form values to its users
			c.P.PlainValues()
		}
		p := c.P
		c.User = &noUser
		if u := st.User; u != nil {
			c.User = u
		}
		f, err := op(c)
		if err == nil && strict {
			err = c.Done() // a handler that reads no parameter still refuses one
		}
		if err != nil {
			WriteError(w, err)
			return
		}
		if !ReportsIgnored(r) || ignoredUnlistedFor(r) {
			p = nil // below the level, a success reply never lists ignored parameters
		}
		write(w, p, f)
	}
}

// noUser is a call's user on a public endpoint: the zero user, shared by every such call.
var noUser realm.User

// ReportsIgnored tells whether the request is answered with ignored_parameters_unsupported.
func ReportsIgnored(r *http.Request) bool {
	st := StateOf(r)
	return st.ReportsIgnored || !st.LevelRead
}

// WithUser notes the authenticated user in the request's state.
func WithUser(r *http.Request, u realm.User) *http.Request {
	r, st := WithState(r)
	st.authenticated = u
	st.User = &st.authenticated
	return r
}

// PathID reads an integer path parameter. The route pattern already guarantees digits, so
// the only failure left is a number too large, which names nothing that exists.
func (c *Call) PathID(name string, notFound error) (int, error) {
	id, err := strconv.Atoi(chi.URLParam(c.R, name))
	if err != nil || id < 0 {
		return 0, notFound
	}
	return id, nil
}

// ReadByID answers a read of what one path ID names, with no other parameter: the ID
// (notFound when too large to name anything), then read's answer for the requester under key.
func ReadByID[T any](c *Call, name string, notFound error, key string, read func(requesterID, id int) (T, error)) (Fields, error) {
	id, err := c.PathID(name, notFound)
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	v, err := read(c.User.ID, id)
	if err != nil {
		return nil, err
	}
	return Fields{key: v}, nil
}

// ChangeByID answers a change to what one path ID names, with no other parameter (a delete,
// an archive, a resend): the ID (notFound when too large to name anything), then change's
// error for the requester, an empty success without one.
func ChangeByID(c *Call, name string, notFound error, change func(requesterID, id int) error) (Fields, error) {
	id, err := c.PathID(name, notFound)
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return Fields{}, change(c.User.ID, id)
}

// Done returns the parameter error if any, so handlers can end with one check; in a strict
// call, a parameter the handler did not read is one.
func (c *Call) Done() error {
	if err := c.P.Err(); err != nil {
		return err
	}
	if unknown := c.P.Unsupported(); c.strict && len(unknown) > 0 {
		return apierr.BadRequest("Unknown setting: %s", strings.Join(unknown, ", ")).With("unknown", unknown)
	}
	return nil
}

// StrictCall is a call on parameters given whole, outside a request, that refuses any the
// reader does not take (settings checked before the fake starts).
func StrictCall(p *params.Params) *Call {
	p.PlainValues()
	return &Call{P: p, User: &noUser, strict: true}
}
