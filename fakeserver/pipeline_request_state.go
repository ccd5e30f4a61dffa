package fakeserver

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// requestState is what the middlewares learn of one request on its way to the handler: the
// body read before any lock, whether the level lists ignored parameters, the authenticated
// user. One value in the request's context, so that each middleware does not copy the
// request to add its own.
type requestState struct {
	// body is the request's body, once readBodyFirst has read it (bodyRead); bodyReader reads
	// it again, as the request's Body.
	body       []byte
	bodyRead   bool
	bodyReader bodyReader
	// levelRead tells whether featureLevel ran; reportsIgnored is what it found.
	levelRead, reportsIgnored bool
	user                      *realm.User
	// authenticated is where user points: the state holds the user, allocated with it.
	authenticated realm.User
	// claimedRead tells whether authentication decoded the HTTP Basic credentials as the
	// journal reads them; claimed is their username ("" for none).
	claimedRead bool
	claimed     string
}

type requestStateKey struct{}

// unreadBody is the body readBodyFirst read, when the request's Body is still its reader and
// nothing has read from it: reading the Body would give these bytes.
func (st *requestState) unreadBody(r *http.Request) ([]byte, bool) {
	if !st.bodyRead || r.Body != io.ReadCloser(&st.bodyReader) || st.bodyReader.Len() != len(st.body) {
		return nil, false
	}
	return st.body, true
}

// bodyReader is a request Body over bytes already read.
type bodyReader struct{ bytes.Reader }

func (*bodyReader) Close() error { return nil }

// withRequestState returns the request with its state, adding one where it has none.
func withRequestState(r *http.Request) (*http.Request, *requestState) {
	if st, ok := r.Context().Value(requestStateKey{}).(*requestState); ok {
		return r, st
	}
	st := &requestState{}
	return r.WithContext(context.WithValue(r.Context(), requestStateKey{}, st)), st
}

// stateOf returns the request's state, or an empty one for a request that never had one.
func stateOf(r *http.Request) *requestState {
	if st, ok := r.Context().Value(requestStateKey{}).(*requestState); ok {
		return st
	}
	return &requestState{}
}
