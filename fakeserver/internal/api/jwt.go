package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// jwtFetchAPIKey: POST /jwt/fetch_api_key (operation 9), without credentials. The token is
// verified with the key and algorithm of the server configuration (PATCH /_fake/config).
func (s *Service) jwtFetchAPIKey(c *handler.Call) (handler.Fields, error) {
	// As on the real server, a missing token is an empty one ("No JSON web token passed").
	token, _ := c.P.String("token")
	includeProfile := c.P.Bool("include_profile", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	if mutation.On("jwt-profile-by-default") && !c.P.Has("include_profile") {
		includeProfile = true
	}
	if mutation.On("jwt-bad-credentials-refused") && c.R.Header.Get("Authorization") != "" {
		if _, err := handler.Authenticate(c.R, s.realm()); err != nil {
			return nil, err
		}
	}
	if mutation.On("jwt-needs-credentials") {
		if _, err := handler.Authenticate(c.R, s.realm()); err != nil {
			return nil, err
		}
	}
	cfg := s.Config()
	u, err := s.realm().JWTLogin(token, realm.JWTConfig{Key: cfg.JWTKey, Algorithm: cfg.JWTAlgorithm})
	if err != nil {
		return nil, err
	}
	f := handler.Fields{"api_key": u.APIKey, "email": u.Email}
	if mutation.On("jwt-api-key-rotated") {
		f["api_key"] = u.APIKey[1:] + u.APIKey[:1]
	}
	if includeProfile {
		// The user as they see themselves, as the real server returns it.
		v, err := s.realm().UserView(u.ID, u.ID)
		if err != nil {
			return nil, err
		}
		if mutation.On("jwt-profile-user-id-of-next") {
			v.UserID++
		}
		f["user"] = v
	}
	return f, nil
}
