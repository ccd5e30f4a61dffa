package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// getReadReceipts: GET /messages/{message_id}/read_receipts.
func (s *Server) getReadReceipts(c *call) (fields, error) {
	id, err := c.pathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	ids, err := s.realm().ReadReceipts(c.user.ID, id)
	if err != nil {
		return nil, err
	}
	return fields{"user_ids": ids}, nil
}
