package realm

import (
	"strings"

	"github.com/golang-jwt/jwt/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// JWTConfig is the realm's JSON Web Token configuration: the shared key (empty: JWT
// authentication is off) and the one HMAC algorithm tokens must be signed with.
type JWTConfig struct {
	Key       string
	Algorithm string
}

// JWTLogin exchanges a JSON Web Token for the user its email claim names (operation 9), with
// the real server's checks and messages. The key and algorithm are the server configuration's
// (which a fixture load sets from the fixture); an empty key means JWT login is off. The
// token is verified by golang-jwt: the signature with that key and algorithm only, and exp,
// nbf and iat when present, against the realm's virtual clock.
func (s *AccountState) JWTLogin(token string, cfg JWTConfig) (User, error) {
	if cfg.Key == "" {
		return User{}, apierr.BadRequest("JWT authentication is not enabled for this organization")
	}
	if token == "" {
		return User{}, apierr.BadRequest("No JSON web token passed in request")
	}
	claims := jwt.MapClaims{}
	parser := jwt.NewParser(jwt.WithValidMethods([]string{cfg.Algorithm}), jwt.WithTimeFunc(s.clock.Now))
	_, err := parser.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte(cfg.Key), nil })
	if mutation.On("jwt-signature-unchecked") {
		_, _, err = parser.ParseUnverified(token, claims)
	}
	if err != nil {
		return User{}, apierr.BadRequest("Bad JSON web token")
	}
	email, ok := claims["email"].(string)
	if !ok || strings.TrimSpace(email) == "" {
		return User{}, apierr.BadRequest("No email specified in JSON web token claims")
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.usersByEmail[strings.ToLower(strings.TrimSpace(email))]
	if u == nil {
		return User{}, apierr.Of(apierr.KindUnauthenticated, "AUTHENTICATION_FAILED", "Your username or password is incorrect")
	}
	if !u.IsActive {
		return User{}, apierr.Of(apierr.KindUnauthenticated, "USER_DEACTIVATED", "Account is deactivated")
	}
	return *u, nil
}
