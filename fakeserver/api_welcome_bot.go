package fakeserver

// testWelcomeBotCustomMessage: POST /realm/test_welcome_bot_custom_message (from feature level
// 416; administrators) — Welcome Bot's custom message, sent to the requester to preview.
func (s *Server) testWelcomeBotCustomMessage(c *call) (fields, error) {
	text := c.p.RequiredString("welcome_message_custom_text")
	if err := c.done(); err != nil {
		return nil, err
	}
	id, err := s.realm().SendWelcomeBotTest(c.user.ID, text)
	if err != nil {
		return nil, err
	}
	return fields{"message_id": id}, nil
}
