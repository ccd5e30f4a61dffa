package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// createScheduledMessage: POST /scheduled_messages.
func (s *Service) createScheduledMessage(c *handler.Call) (handler.Fields, error) {
	kind := c.P.RequiredEnum("type", s.messageTypes()...)
	to := c.P.RequiredString("to")
	topic, topicGiven := c.P.String("topic")
	content := c.P.RequiredString("content")
	deliverAt := c.P.RequiredInt("scheduled_delivery_timestamp")
	c.P.Bool("read_by_sender", true) // taken, and changes nothing in the fake
	if err := c.Done(); err != nil {
		return nil, err
	}
	m := realm.ScheduledMessage{Draft: realm.Draft{Direct: kind == "direct" || kind == "private", Topic: topic, TopicGiven: topicGiven, Content: content}, DeliverAt: deliverAt}
	id, err := s.realm().CreateScheduledMessage(c.User.ID, m, to)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"scheduled_message_id": id}, nil
}

// getScheduledMessages: GET /scheduled_messages.
func (s *Service) getScheduledMessages(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"scheduled_messages": s.realm().ScheduledMessages(c.User.ID)}, nil
}

// errScheduledMissing answers an ID too large to name a scheduled message.
var errScheduledMissing = apierr.New(404, "BAD_REQUEST", "Scheduled message does not exist")

// editScheduledMessage: PATCH /scheduled_messages/{scheduled_message_id}.
func (s *Service) editScheduledMessage(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("scheduled_message_id", errScheduledMissing)
	if err != nil {
		return nil, err
	}
	var change realm.ScheduledChange
	if c.P.Has("type") {
		kind := c.P.Enum("type", "", s.messageTypes()...)
		direct := kind == "direct" || kind == "private"
		change.Direct = &direct
	}
	change.To = optionalString(c, "to")
	change.Topic = optionalString(c, "topic")
	change.Content = optionalString(c, "content")
	if at, ok := c.P.Int("scheduled_delivery_timestamp"); ok {
		change.DeliverAt = &at
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().EditScheduledMessage(c.User.ID, id, change)
}

// deleteScheduledMessage: DELETE /scheduled_messages/{scheduled_message_id}.
func (s *Service) deleteScheduledMessage(c *handler.Call) (handler.Fields, error) {
	return handler.ChangeByID(c, "scheduled_message_id", errScheduledMissing, s.realm().DeleteScheduledMessage)
}
