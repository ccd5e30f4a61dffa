package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/apierr"

// getMessageHistory: GET /messages/{message_id}/history.
func (s *Server) getMessageHistory(c *call) (fields, error) {
	id, err := c.pathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	allowEmpty := c.p.Bool("allow_empty_topic_name", false)
	if err := c.done(); err != nil {
		return nil, err
	}
	history, err := s.realm().MessageHistory(c.user.ID, id, allowEmpty)
	if err != nil {
		return nil, err
	}
	return fields{"message_history": history}, nil
}
