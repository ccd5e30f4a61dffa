package control

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// confirmEmailChange: POST /_fake/email_changes/confirm — a user follows the confirmation link
// the real server mails to the new address of an email change started with PATCH /settings.
func (s *Service) confirmEmailChange(c *handler.Call) (handler.Fields, error) {
	userID := c.P.RequiredInt("user_id")
	if err := c.Done(); err != nil {
		return nil, err
	}
	if userID < 1 || userID > 1<<31-1 {
		return nil, apierr.NoSuchUser
	}
	email, err := s.state.ConfirmEmailChange(int(userID))
	if err != nil {
		return nil, err
	}
	return handler.Fields{"email": email}, nil
}
