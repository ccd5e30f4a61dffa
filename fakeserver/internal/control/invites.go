package control

import (
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// acceptInvite: POST /_fake/invites/accept — a new user accepts an invitation, as through the
// real server's sign-up form: an email invitation by its address, or an invitation link by
// its link_url (with the address the account gets).
func (s *Service) acceptInvite(c *handler.Call) (handler.Fields, error) {
	a := realm.Acceptance{Email: c.P.RequiredString("email"), FullName: c.P.RequiredString("full_name")}
	a.LinkURL, _ = c.P.String("link_url")
	if err := c.Done(); err != nil {
		return nil, err
	}
	j, err := s.state.AcceptInvite(a)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"user_id": j.UserID, "api_key": j.APIKey}, nil
}
