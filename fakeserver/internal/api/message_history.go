package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// getMessageHistory: GET /messages/{message_id}/history.
func (s *Service) getMessageHistory(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	allowEmpty := c.P.Bool("allow_empty_topic_name", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	history, err := s.realm().MessageHistory(c.User.ID, id, allowEmpty)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"message_history": history}, nil
}
