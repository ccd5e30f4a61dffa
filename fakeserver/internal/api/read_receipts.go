package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// getReadReceipts: GET /messages/{message_id}/read_receipts.
func (s *Service) getReadReceipts(c *handler.Call) (handler.Fields, error) {
	return handler.ReadByID(c, "message_id", apierr.InvalidMessage, "user_ids", s.realm().ReadReceipts)
}
