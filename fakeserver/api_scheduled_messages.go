package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// createScheduledMessage: POST /scheduled_messages.
func (s *Server) createScheduledMessage(c *call) (fields, error) {
	kind := c.p.RequiredEnum("type", s.messageTypes()...)
	to := c.p.RequiredString("to")
	topic, topicGiven := c.p.String("topic")
	content := c.p.RequiredString("content")
	deliverAt := c.p.RequiredInt("scheduled_delivery_timestamp")
	c.p.Bool("read_by_sender", true) // taken, and changes nothing in the fake
	if err := c.done(); err != nil {
		return nil, err
	}
	m := realm.ScheduledMessage{Draft: realm.Draft{Direct: kind == "direct" || kind == "private", Topic: topic, TopicGiven: topicGiven, Content: content}, DeliverAt: deliverAt}
	id, err := s.realm().CreateScheduledMessage(c.user.ID, m, to)
	if err != nil {
		return nil, err
	}
	return fields{"scheduled_message_id": id}, nil
}

// getScheduledMessages: GET /scheduled_messages.
func (s *Server) getScheduledMessages(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"scheduled_messages": s.realm().ScheduledMessages(c.user.ID)}, nil
}

// errScheduledMissing answers an ID too large to name a scheduled message.
var errScheduledMissing = apierr.New(404, "BAD_REQUEST", "Scheduled message does not exist")

// editScheduledMessage: PATCH /scheduled_messages/{scheduled_message_id}.
func (s *Server) editScheduledMessage(c *call) (fields, error) {
	id, err := c.pathID("scheduled_message_id", errScheduledMissing)
	if err != nil {
		return nil, err
	}
	var change realm.ScheduledChange
	if c.p.Has("type") {
		kind := c.p.Enum("type", "", s.messageTypes()...)
		direct := kind == "direct" || kind == "private"
		change.Direct = &direct
	}
	change.To = optionalString(c, "to")
	change.Topic = optionalString(c, "topic")
	change.Content = optionalString(c, "content")
	if at, ok := c.p.Int("scheduled_delivery_timestamp"); ok {
		change.DeliverAt = &at
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().EditScheduledMessage(c.user.ID, id, change)
}

// deleteScheduledMessage: DELETE /scheduled_messages/{scheduled_message_id}.
func (s *Server) deleteScheduledMessage(c *call) (fields, error) {
	id, err := c.pathID("scheduled_message_id", errScheduledMissing)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().DeleteScheduledMessage(c.user.ID, id)
}
