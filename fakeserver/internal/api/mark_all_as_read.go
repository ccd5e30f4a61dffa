package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// markAllAsRead: POST /mark_all_as_read (operation 19), batched like topic deletion.
func (s *Service) markAllAsRead(c *handler.Call) (handler.Fields, error) {
	return s.completion(s.realm().MarkAllAsRead(c.User.ID, s.batching())), nil
}
