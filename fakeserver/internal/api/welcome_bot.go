package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// testWelcomeBotCustomMessage: POST /realm/test_welcome_bot_custom_message (from feature level
// 416; administrators) — Welcome Bot's custom message, sent to the requester to preview.
func (s *Service) testWelcomeBotCustomMessage(c *handler.Call) (handler.Fields, error) {
	text := c.P.RequiredString("welcome_message_custom_text")
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().SendWelcomeBotTest(c.User.ID, text)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"message_id": id}, nil
}
