package handler

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// State is what the middlewares learn of one request on its way to the handler: the
// body read before any lock, whether the level lists ignored parameters, the authenticated
// user. One value in the request's context, so that each middleware does not copy the
// request to add its own.
type State struct {
	// body is the request's body, once readBodyFirst has read it (bodyRead); bodyReader reads
	// it again, as the request's Body.
	body       []byte
	bodyRead   bool
	bodyReader bodyReader
	// LevelRead tells whether the pipeline's feature-level stage ran; ReportsIgnored is what it
	// found.
	LevelRead, ReportsIgnored bool
	// User is the authenticated user (WithUser), nil for none.
	User *realm.User
	// authenticated is where User points: the state holds the user, allocated with it.
	authenticated realm.User
	// ClaimedRead tells whether authentication decoded the HTTP Basic credentials as the
	// journal reads them; Claimed is their username ("" for none).
	ClaimedRead bool
	Claimed     string
}

// StateKey is the context key of a request's State, for a context that holds the state
// itself rather than through WithState.
type StateKey struct{}

// UnreadBody is the body readBodyFirst read, when the request's Body is still its reader and
// nothing has read from it: reading the Body would give these bytes.
func (st *State) UnreadBody(r *http.Request) ([]byte, bool) {
	if !st.bodyRead || r.Body != io.ReadCloser(&st.bodyReader) || st.bodyReader.Len() != len(st.body) {
		return nil, false
	}
	return st.body, true
}

// bodyReader is a request Body over bytes already read.
type bodyReader struct{ bytes.Reader }

func (*bodyReader) Close() error { return nil }

// WithState returns the request with its state, adding one where it has none.
func WithState(r *http.Request) (*http.Request, *State) {
	if st, ok := r.Context().Value(StateKey{}).(*State); ok {
		return r, st
	}
	st := &State{}
	return r.WithContext(context.WithValue(r.Context(), StateKey{}, st)), st
}

// StateOf returns the request's state, or an empty one for a request that never had one.
func StateOf(r *http.Request) *State {
	if st, ok := r.Context().Value(StateKey{}).(*State); ok {
		return st
	}
	return &State{}
}

// KeepBody notes the body the pipeline read before any lock and makes it the request's Body
// again, read from memory.
func (st *State) KeepBody(r *http.Request, body []byte) {
	st.body, st.bodyRead = body, true
	st.bodyReader.Reset(body)
	r.Body = &st.bodyReader
}

// Body is the body the pipeline read (KeepBody), nil for none.
func (st *State) Body() []byte { return st.body }
