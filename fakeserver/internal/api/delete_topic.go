package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// deleteTopic: POST /streams/{stream_id}/delete_topic (operation 8); administrators only.
func (s *Service) deleteTopic(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	topic := c.P.RequiredString("topic_name")
	if err := c.Done(); err != nil {
		return nil, err
	}
	complete, err := s.realm().DeleteTopic(c.User.ID, id, topic, s.batching())
	if err != nil {
		return nil, err
	}
	return s.completion(complete), nil
}
