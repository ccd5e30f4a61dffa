package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// muteUser: POST /users/me/muted_users/{muted_user_id}.
func (s *Service) muteUser(c *handler.Call) (handler.Fields, error) {
	return s.changeMute(c, s.realm().MuteUser)
}

// unmuteUser: DELETE /users/me/muted_users/{muted_user_id}.
func (s *Service) unmuteUser(c *handler.Call) (handler.Fields, error) {
	return s.changeMute(c, s.realm().UnmuteUser)
}

func (s *Service) changeMute(c *handler.Call, change func(userID, targetID int) error) (handler.Fields, error) {
	id, err := c.PathID("muted_user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, change(c.User.ID, id)
}
