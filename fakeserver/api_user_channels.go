package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/apierr"

// getUserChannels: GET /users/{user_id}/channels — the channels a user is subscribed to, as
// far as the requester may see their subscribers.
func (s *Server) getUserChannels(c *call) (fields, error) {
	id, err := c.pathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	ids, err := s.realm().UserChannels(c.user.ID, id)
	if err != nil {
		return nil, err
	}
	return fields{"subscribed_channel_ids": ids}, nil
}
