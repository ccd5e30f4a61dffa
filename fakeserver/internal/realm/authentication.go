package realm

import (
	"crypto/rand"
	"regexp"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// apiKeyPattern is every API key's shape: a key of another shape is malformed before any lookup.
var apiKeyPattern = regexp.MustCompile(`^[A-Za-z0-9]{32}$`)

// Authenticate checks Basic credentials in the real server's order and with its messages.
// It returns a copy of the user so that callers never read shared state unlocked.
func (s *AccountState) Authenticate(email, apiKey string) (User, error) {
	if !apiKeyPattern.MatchString(apiKey) {
		return User{}, apierr.Unauthorized("Malformed API key")
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if b := s.usersByEmail[strings.ToLower(strings.TrimSpace(email))]; mutation.On("bot-any-key-accepted") && b != nil && b.IsBot && b.IsActive {
		return *b, nil
	}
	u, ok := s.usersByKey[apiKey]
	if !ok || !strings.EqualFold(strings.TrimSpace(email), u.Email) && !mutation.On("login-email-not-checked") {
		return User{}, apierr.Unauthorized("Invalid API key")
	}
	if !u.IsActive && !mutation.On("deactivated-user-authenticates") || mutation.On("bot-auth-refused") && u.IsBot || mutation.On("guest-auth-refused") && u.IsGuest() {
		return User{}, apierr.Unauthorized("Account is deactivated")
	}
	return *u, nil
}

// maxLoginLength is the longest login email the real server reads (Django's email validator
// refuses longer ones before anything else).
const maxLoginLength = 320

// LoginKey is the form of a login email by which accounts are found: trimmed and lower-cased,
// so that spellings that log in to one account are one key; an email that cannot name an
// account is refused as the real server refuses it, before any attempt counts.
func LoginKey(email string) (string, error) {
	if !strings.Contains(email, "@") || len(email) > maxLoginLength {
		return "", apierr.BadRequest("Enter a valid email address.")
	}
	return strings.ToLower(strings.TrimSpace(email)), nil
}

// PasswordLogin exchanges an email and password for the user (POST /fetch_api_key).
func (s *AccountState) PasswordLogin(email, password string) (User, error) {
	key, err := LoginKey(email)
	if err != nil {
		return User{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.usersByEmail[key]
	if !ok || u.IsBot || u.Password == "" || u.Password != password {
		return User{}, apierr.Of(apierr.KindUnauthenticated, "AUTHENTICATION_FAILED", "Your username or password is incorrect")
	}
	if !u.IsActive {
		return User{}, apierr.Of(apierr.KindUnauthenticated, "USER_DEACTIVATED", "Account is deactivated")
	}
	return *u, nil
}

const keyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// newAPIKey returns a random 32-character key. Keys are the one thing not reproducible:
// a guessable key would let one test's user act as another's.
func newAPIKey() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = keyAlphabet[int(b[i])%len(keyAlphabet)]
	}
	return string(b)
}

// UserIDByLogin finds an active user by login (delivery) email, for the fake's Go seeding API,
// which acts as users the caller names; it is not an API lookup (no visibility rules apply).
func (s *AccountState) UserIDByLogin(email string) (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.usersByEmail[strings.ToLower(strings.TrimSpace(email))]
	if !ok || !u.IsActive {
		return 0, false
	}
	return u.ID, true
}

// LoginOf returns a user's login email and API key, for the fake's Go API (a test's ready
// client), never for an API reply.
func (s *AccountState) LoginOf(id int) (email, apiKey string, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, found := s.users[id]
	if !found {
		return "", "", false
	}
	return u.Email, u.APIKey, true
}
