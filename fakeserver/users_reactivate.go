package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/apierr"

// reactivateUser: POST /users/{user_id}/reactivate; administrators only.
func (s *Server) reactivateUser(c *call) (fields, error) {
	id, err := c.pathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().ReactivateUser(c.user.ID, id)
}
