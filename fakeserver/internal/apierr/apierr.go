// Package apierr is the fake server's one error type: every failed request ends as an
// *Error, which the HTTP layer writes as the documented error envelope.
package apierr

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Error is an API error: the envelope's code and msg, the HTTP status, and any extra
// top-level fields (for example first_message_id_allowed_to_move).
type Error struct {
	Code   string
	Msg    string
	Status int
	Extra  map[string]any
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Msg) }

// With returns a copy of e carrying an extra envelope field.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Extra = make(map[string]any, len(e.Extra)+1)
	for k, v := range e.Extra {
		c.Extra[k] = v
	}
	c.Extra[key] = value
	return &c
}

// New makes an error with an explicit code and status.
func New(status int, code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Status: status}
}

// Kind is what went wrong, in the domain's words: the domain (package realm) knows nothing
// of HTTP, so it names a kind and this package gives the status the real server answers.
type Kind int

// The kinds of failure the domain reports.
const (
	KindInvalid         Kind = iota // the request cannot be carried out as asked: HTTP 400
	KindUnauthenticated             // the credentials are wrong or the account is deactivated: 401
	KindForbidden                   // the user may not see the thing: 403
	KindNotFound                    // the thing does not exist: 404
)

var kindStatus = map[Kind]int{
	KindInvalid: http.StatusBadRequest, KindUnauthenticated: http.StatusUnauthorized,
	KindForbidden: http.StatusForbidden, KindNotFound: http.StatusNotFound,
}

// Of makes an error of a kind with an explicit code.
func Of(kind Kind, code, format string, args ...any) *Error {
	return New(kindStatus[kind], code, format, args...)
}

// BadRequest is the real server's generic failure: HTTP 400, code BAD_REQUEST.
func BadRequest(format string, args ...any) *Error {
	return New(http.StatusBadRequest, "BAD_REQUEST", format, args...)
}

// Missing is the error for a required parameter that was not sent.
func Missing(name string) *Error {
	return New(http.StatusBadRequest, "REQUEST_VARIABLE_MISSING", "Missing '%s' argument", name).With("var_name", name)
}

// Unauthorized is the error for missing or invalid credentials on the Basic auth path.
func Unauthorized(msg string) *Error {
	if mutation.On("unauthorized-msg-empty") {
		msg = ""
	}
	return &Error{Code: "UNAUTHORIZED", Msg: msg, Status: http.StatusUnauthorized}
}

// UnauthorizedPrincipal is the real server's answer when a role restriction is not met.
func UnauthorizedPrincipal(msg string) *Error {
	return &Error{Code: "UNAUTHORIZED_PRINCIPAL", Msg: msg, Status: http.StatusBadRequest}
}

// NotFound is the error for an unknown route or a path that does not match a route pattern.
func NotFound() *Error { return New(http.StatusNotFound, "BAD_REQUEST", "Not Found") }

// The lookups every operation shares; their messages do not reveal whether a thing exists.
var (
	InvalidMessage = BadRequest("Invalid message(s)")
	InvalidChannel = BadRequest("Invalid channel ID")
	NoSuchUser     = BadRequest("No such user")
	MustBeAdmin    = UnauthorizedPrincipal("Must be an organization administrator")
	MustBeOwner    = UnauthorizedPrincipal("Must be an organization owner")
)

// From converts any error into an *Error; an error that is not an API error is an
// internal failure, which the HTTP layer reports without leaking details.
func From(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return New(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "Internal server error")
}
