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
	ids, aerr := s.realm().ReadReceipts(c.user.ID, id)
	if aerr != nil {
		return nil, aerr
	}
	return fields{"user_ids": ids}, nil
}
