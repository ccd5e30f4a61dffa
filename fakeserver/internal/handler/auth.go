package handler

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// Authenticate checks HTTP Basic credentials with the real server's messages; on the Basic
// path every failure is 401 UNAUTHORIZED.
func Authenticate(r *http.Request, state *realm.State) (realm.User, error) {
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
		st := StateOf(r)
		st.ClaimedRead, st.Claimed = true, ""
		if err == nil && found {
			st.Claimed = email
		}
	}
	if err != nil || !found {
		return realm.User{}, apierr.Unauthorized("Invalid authorization header for basic auth")
	}
	return state.Authenticate(email, key)
}
