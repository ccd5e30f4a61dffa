package realm

import (
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// UpdateUserByEmail applies an administrator's change to the user an email names: the
// dummy address user<id>@<realm host>, or the real address if the requester may see it.
func (s *AccountState) UpdateUserByEmail(requesterID int, email string, up UserUpdate) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.users[requesterID]
	target := s.userByEmail(req, email)
	if target == nil || mutation.On("update-by-dummy-email-refused") && !strings.EqualFold(strings.TrimSpace(email), target.Email) {
		return apierr.NoSuchUser
	}
	return s.updateUser(req, target, up)
}
