package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// muteUser: POST /users/me/muted_users/{muted_user_id}.
func (s *Server) muteUser(c *call) (fields, error) {
	return s.changeMute(c, s.realm().MuteUser)
}

// unmuteUser: DELETE /users/me/muted_users/{muted_user_id}.
func (s *Server) unmuteUser(c *call) (fields, error) {
	return s.changeMute(c, s.realm().UnmuteUser)
}

func (s *Server) changeMute(c *call, change func(userID, targetID int) error) (fields, error) {
	id, err := c.pathID("muted_user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, change(c.user.ID, id)
}
