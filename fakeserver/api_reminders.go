package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// maxInt32 bounds IDs read from JSON integers: larger ones name nothing.
const maxInt32 = 1<<31 - 1

// createReminder: POST /reminders (operation 15).
func (s *Server) createReminder(c *call) (fields, error) {
	messageID := c.p.RequiredInt("message_id")
	deliverAt := c.p.RequiredInt("scheduled_delivery_timestamp")
	var note string
	if s.realm().AtLeast(realm.LevelReminderNote) { // an unknown parameter before
		note, _ = c.p.String("note")
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	if mutation.On("reminder-note-required") && note == "" {
		return nil, apierr.BadRequest("Missing 'note' argument")
	}
	if messageID < 0 || messageID > maxInt32 {
		messageID = 0 // names no message: the domain answers "Invalid message(s)" in its turn
	}
	id, err := s.realm().CreateReminder(c.user.ID, int(messageID), deliverAt, note)
	if err != nil {
		return nil, err
	}
	if mutation.On("reminder-id-of-next") {
		id++
	}
	return fields{"reminder_id": id}, nil
}

// getReminders: GET /reminders — the requester's undelivered reminders.
func (s *Server) getReminders(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"reminders": s.realm().Reminders(c.user.ID)}, nil
}

// deleteReminder: DELETE /reminders/{reminder_id}.
func (s *Server) deleteReminder(c *call) (fields, error) {
	id, err := c.pathID("reminder_id", apierr.BadRequest("Reminder does not exist"))
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().DeleteReminder(c.user.ID, id)
}
