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
	complete, aerr := s.realm().DeleteTopic(c.user.ID, id, topic, s.batching())
	if aerr != nil {
		return nil, aerr
	}
	return s.completion(complete), nil
}
