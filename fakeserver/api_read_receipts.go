package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// getReadReceipts: GET /messages/{message_id}/read_receipts.
func (s *Server) getReadReceipts(c *call) (fields, error) {
	return readByID(c, "message_id", apierr.InvalidMessage, "user_ids", s.realm().ReadReceipts)
}
