package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/realm"

// acceptInvite: POST /_fake/invites/accept — a new user accepts an invitation, as through the
// real server's sign-up form: an email invitation by its address, or an invitation link by
// its link_url (with the address the account gets).
func (s *Server) acceptInvite(c *call) (fields, error) {
	a := realm.Acceptance{Email: c.p.RequiredString("email"), FullName: c.p.RequiredString("full_name")}
	a.LinkURL, _ = c.p.String("link_url")
	if err := c.done(); err != nil {
		return nil, err
	}
	j, err := s.realm().AcceptInvite(a)
	if err != nil {
		return nil, err
	}
	return fields{"user_id": j.UserID, "api_key": j.APIKey}, nil
}
