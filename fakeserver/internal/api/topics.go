package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// getTopics: GET /users/me/{stream_id}/topics (operation 12).
func (s *Service) getTopics(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	allowEmpty := c.P.Bool("allow_empty_topic_name", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	if mutation.On("topics-empty-name-by-default") && !c.P.Has("allow_empty_topic_name") {
		allowEmpty = true
	}
	topics, err := s.realm().Topics(c.User.ID, id, allowEmpty)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"topics": topics}, nil
}
