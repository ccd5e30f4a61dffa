package fakeserver

// markAllAsRead: POST /mark_all_as_read (operation 19), batched like topic deletion.
func (s *Server) markAllAsRead(c *call) (fields, error) {
	return s.completion(s.realm().MarkAllAsRead(c.user.ID, s.batching())), nil
}
