package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// addDefaultChannel: POST /default_streams — administrators only.
func (s *Service) addDefaultChannel(c *handler.Call) (handler.Fields, error) {
	id := channelIDParam(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().AddDefaultChannel(c.User.ID, id)
}

// removeDefaultChannel: DELETE /default_streams — administrators only.
func (s *Service) removeDefaultChannel(c *handler.Call) (handler.Fields, error) {
	id := channelIDParam(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveDefaultChannel(c.User.ID, id)
}
