package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// renderMessage: POST /messages/render — the HTML a message with this content would get.
func (s *Service) renderMessage(c *handler.Call) (handler.Fields, error) {
	content := c.P.RequiredString("content")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"rendered": s.realm().Render(content)}, nil
}
