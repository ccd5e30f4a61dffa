package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// getUserChannels: GET /users/{user_id}/channels — the channels a user is subscribed to, as
// far as the requester may see their subscribers.
func (s *Service) getUserChannels(c *handler.Call) (handler.Fields, error) {
	return handler.ReadByID(c, "user_id", apierr.NoSuchUser, "subscribed_channel_ids", s.realm().UserChannels)
}
