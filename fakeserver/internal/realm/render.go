package realm

// Render implements POST /messages/render: content rendered as a message the user sent would
// be, without sending it (mentions resolved against the realm's users). Longer content is
// truncated as a sent message is: Markdown's cost grows faster than its length on some
// shapes ("[a](" or "> " repeated: 60 s for 256 KB), and what a send shows is this much.
func (s *MessageState) Render(content string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.render(truncate(content, s.settings.MaxMessageLength, "\n[message truncated]")).HTML
}
