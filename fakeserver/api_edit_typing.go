package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// editTyping: POST /messages/{message_id}/typing (operation 13).
func (s *Server) editTyping(c *call) (fields, error) {
	id, err := c.pathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	return s.setEditTyping(c, id)
}

// editTypingLegacy: POST /message_edit_typing, operation 13 with message_id in the body, the
// real server's route before it moved under the message (its changelog).
func (s *Server) editTypingLegacy(c *call) (fields, error) {
	id := c.p.RequiredInt("message_id")
	if id < 0 || id > maxInt32 {
		id = 0 // names no message: the domain answers "Invalid message(s)" in its turn
	}
	return s.setEditTyping(c, int(id))
}

// setEditTyping reads op and starts or stops the requester's edit typing on message id.
func (s *Server) setEditTyping(c *call, id int) (fields, error) {
	ops := []string{"start", "stop"}
	if v, _ := c.p.String("op"); mutation.On("edit-typing-op-any-value") {
		ops = append(ops, v)
	}
	op := c.p.RequiredEnum("op", ops...)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, editTypingError(s.realm().SetEditTyping(c.user.ID, id, op == "start"))
}
