package realm

import (
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// DevLogin hands out a user's API key without a password (POST /dev_fetch_api_key), which
// only a development server does; a production server answers that the development
// authentication backend is off.
func (s *AccountState) DevLogin(email string) (User, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if !s.settings.DevelopmentMode {
		return User{}, apierr.BadRequest("DevAuthBackend not enabled.")
	}
	if !validEmail(strings.TrimSpace(email)) {
		return User{}, apierr.BadRequest("Enter a valid email address.")
	}
	u, ok := s.usersByEmail[strings.ToLower(strings.TrimSpace(email))]
	if !ok || u.IsBot {
		return User{}, apierr.Of(apierr.KindUnauthenticated, "AUTHENTICATION_FAILED", "Your username or password is incorrect")
	}
	if !u.IsActive {
		return User{}, apierr.Of(apierr.KindUnauthenticated, "USER_DEACTIVATED", "Account is deactivated")
	}
	return *u, nil
}
