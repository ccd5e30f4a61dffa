package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// deleteTopic: POST /streams/{stream_id}/delete_topic (operation 8); administrators only.
func (s *Server) deleteTopic(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	topic := c.p.RequiredString("topic_name")
	if err := c.done(); err != nil {
		return nil, err
	}
	complete, err := s.realm().DeleteTopic(c.user.ID, id, topic, s.batching())
	if err != nil {
		return nil, err
	}
	return s.completion(complete), nil
}
