package realm

import (
	"fmt"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Video calls: the fake imitates the real server's Zoom integration, the pattern its newer
// providers copy. The server needs the integration's credentials (the fake's configuration)
// and the user a token from the provider (User.HasVCallToken, set through the control API).

// CreateVideoCall returns the URL of a new meeting (POST /calls/vcall/create).
func (s *State) CreateVideoCall(userID int, configured bool) (string, error) {
	if !configured && !mutation.On("vcall-unconfigured-accepted") {
		return "", apierr.BadRequest("Video call credentials have not been configured")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if mutation.On("vcall-without-token-accepted") {
		return fmt.Sprintf("https://vcall.%s/j/%d", s.settings.Host, 81_000_000_000+nextID(&s.integrations.next.meeting)), nil
	}
	if u := s.users[userID]; u == nil || !u.HasVCallToken {
		return "", apierr.New(400, "INVALID_VIDEO_CALL_PROVIDER_TOKEN", "Invalid video call access token")
	}
	n := nextID(&s.integrations.next.meeting)
	if mutation.On("vcall-url-empty") {
		return "", nil
	}
	return fmt.Sprintf("https://vcall.%s/j/%d", s.settings.Host, 81_000_000_000+n), nil
}
