package realm

// Render implements POST /messages/render: content rendered as a message the user sent would
// be, without sending it (mentions resolved against the realm's users).
func (s *MessageState) Render(content string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.render(content).HTML
}
