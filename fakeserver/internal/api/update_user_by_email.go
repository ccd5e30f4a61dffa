package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// updateUserByEmail: PATCH /users/{email} (operation 2) — as PATCH /users/{user_id}, the
// user named by a real address the requester may see or by the dummy user<id>@<realm host>.
func (s *Service) updateUserByEmail(c *handler.Call) (handler.Fields, error) {
	email, err := pathEmail(c)
	if err != nil {
		return nil, err
	}
	up := userUpdate(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateUserByEmail(c.User.ID, email, up)
}
