package fakeserver

// renderMessage: POST /messages/render — the HTML a message with this content would get.
func (s *Server) renderMessage(c *call) (fields, error) {
	content := c.p.RequiredString("content")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"rendered": s.realm().Render(content)}, nil
}
