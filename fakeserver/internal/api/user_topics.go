package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// updateUserTopic: POST /user_topics — a topic's visibility policy for the user (0 inherit,
// 1 muted, 2 unmuted, 3 followed).
func (s *Service) updateUserTopic(c *handler.Call) (handler.Fields, error) {
	id := channelIDParam(c)
	topic := c.P.RequiredString("topic")
	policy := c.P.RequiredInt("visibility_policy")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().SetUserTopic(c.User.ID, id, topic, int(policy))
}
