package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// maxInt32 bounds IDs read from JSON integers: larger ones name nothing.
const maxInt32 = 1<<31 - 1

// createReminder: POST /reminders (operation 15).
func (s *Service) createReminder(c *handler.Call) (handler.Fields, error) {
	messageID := c.P.RequiredInt("message_id")
	deliverAt := c.P.RequiredInt("scheduled_delivery_timestamp")
	var note string
	if s.realm().AtLeast(realm.LevelReminderNote) { // an unknown parameter before
		note, _ = c.P.String("note")
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	if mutation.On("reminder-note-required") && note == "" {
		return nil, apierr.BadRequest("Missing 'note' argument")
	}
	if messageID < 0 || messageID > maxInt32 {
		messageID = 0 // names no message: the domain answers "Invalid message(s)" in its turn
	}
	id, err := s.realm().CreateReminder(c.User.ID, int(messageID), deliverAt, note)
	if err != nil {
		return nil, err
	}
	if mutation.On("reminder-id-of-next") {
		id++
	}
	return handler.Fields{"reminder_id": id}, nil
}

// getReminders: GET /reminders — the requester's undelivered reminders.
func (s *Service) getReminders(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"reminders": s.realm().Reminders(c.User.ID)}, nil
}

// deleteReminder: DELETE /reminders/{reminder_id}.
func (s *Service) deleteReminder(c *handler.Call) (handler.Fields, error) {
	return deleteOwn(c, "reminder_id", apierr.BadRequest("Reminder does not exist"), s.realm().DeleteReminder)
}
