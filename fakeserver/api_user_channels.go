package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/apierr"

// getUserChannels: GET /users/{user_id}/channels — the channels a user is subscribed to, as
// far as the requester may see their subscribers.
func (s *Server) getUserChannels(c *call) (fields, error) {
	return readByID(c, "user_id", apierr.NoSuchUser, "subscribed_channel_ids", s.realm().UserChannels)
}
