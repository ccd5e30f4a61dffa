package fakeserver

// updateUserTopic: POST /user_topics — a topic's visibility policy for the user (0 inherit,
// 1 muted, 2 unmuted, 3 followed).
func (s *Server) updateUserTopic(c *call) (fields, error) {
	id := channelIDParam(c)
	topic := c.p.RequiredString("topic")
	policy := c.p.RequiredInt("visibility_policy")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().SetUserTopic(c.user.ID, id, topic, int(policy))
}
