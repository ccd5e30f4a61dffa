package fakeserver

import (
	"context"
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// requestState is what the middlewares learn of one request on its way to the handler: the
// body read before any lock, whether the level lists ignored parameters, the authenticated
// user. One value in the request's context, so that each middleware does not copy the
// request to add its own.
type requestState struct {
	body []byte
	// levelRead tells whether featureLevel ran; reportsIgnored is what it found.
	levelRead, reportsIgnored bool
	user                      *realm.User
	// authenticated is where user points: the state holds the user, allocated with it.
	authenticated realm.User
}

type requestStateKey struct{}

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
