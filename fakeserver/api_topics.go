package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// getTopics: GET /users/me/{stream_id}/topics (operation 12).
func (s *Server) getTopics(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	allowEmpty := c.p.Bool("allow_empty_topic_name", false)
	if err := c.done(); err != nil {
		return nil, err
	}
	if mutation.On("topics-empty-name-by-default") && !c.p.Has("allow_empty_topic_name") {
		allowEmpty = true
	}
	topics, err := s.realm().Topics(c.user.ID, id, allowEmpty)
	if err != nil {
		return nil, err
	}
	return fields{"topics": topics}, nil
}
