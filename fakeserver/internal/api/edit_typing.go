package api

import (
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// editTyping: POST /messages/{message_id}/typing (operation 13).
func (s *Service) editTyping(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	return s.setEditTyping(c, id)
}

// editTypingLegacy: POST /message_edit_typing, operation 13 with message_id in the body, the
// real server's route before it moved under the message (its changelog).
func (s *Service) editTypingLegacy(c *handler.Call) (handler.Fields, error) {
	id := c.P.RequiredInt("message_id")
	if id < 0 || id > maxInt32 {
		id = 0 // names no message: the domain answers "Invalid message(s)" in its turn
	}
	return s.setEditTyping(c, int(id))
}

// setEditTyping reads op and starts or stops the requester's edit typing on message id.
func (s *Service) setEditTyping(c *handler.Call, id int) (handler.Fields, error) {
	ops := []string{"start", "stop"}
	if v, _ := c.P.String("op"); mutation.On("edit-typing-op-any-value") {
		ops = append(ops, v)
	}
	op := c.P.RequiredEnum("op", ops...)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, editTypingError(s.realm().SetEditTyping(c.User.ID, id, op == "start"))
}

// editTypingError is edit typing's refusal, or a REST server's 404 with its own code where the
// message is missing or invisible (BAD_REQUEST is the code for an invalid message).
func editTypingError(err error) error {
	if err == nil || !mutation.On("edit-typing-invalid-message-not-found") {
		return err
	}
	e := *apierr.From(err)
	e.Code, e.Status = "NOT_FOUND", http.StatusNotFound
	return &e
}
