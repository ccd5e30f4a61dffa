package fakeserver

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// authenticate checks HTTP Basic credentials with the real server's messages; on the Basic
// path every failure is 401 UNAUTHORIZED.
func (s *Server) authenticate(r *http.Request) (realm.User, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		if mutation.On("linkifiers-without-credentials") && strings.HasSuffix(r.URL.Path, "/realm/linkifiers") {
			return realm.User{}, nil
		}
		return realm.User{}, apierr.Unauthorized(missingCredentialsMsg())
	}
	scheme, payload, _ := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "Basic") {
		return realm.User{}, apierr.BadRequest("This endpoint requires HTTP basic authentication.")
	}
	var buf [256]byte // credentials that fit are decoded without allocating
	trimmed := strings.TrimSpace(payload)
	decoded, err := base64.StdEncoding.AppendDecode(buf[:0], []byte(trimmed))
	email, key, found := strings.Cut(string(decoded), ":")
	if trimmed == payload && len(scheme) == len("Basic") {
		// The journal's reading of the header (basicUsername) decodes these same bytes: it
		// takes the username from here rather than decode them again.
		st := stateOf(r)
		st.claimedRead, st.claimed = true, ""
		if err == nil && found {
			st.claimed = email
		}
	}
	if err != nil || !found {
		return realm.User{}, apierr.Unauthorized("Invalid authorization header for basic auth")
	}
	return s.realm().Authenticate(email, key)
}

// requireAuth lets only authenticated requests through to the routes it guards.
func (s *Server) requireAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, _ = withRequestState(r) // where authenticate notes the username for the journal
		u, err := s.authenticate(r)
		if err != nil {
			writeError(w, err)
			return
		}
		next.ServeHTTP(w, withUser(r, u))
	})
}
