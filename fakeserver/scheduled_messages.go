package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// scheduledTo reads a scheduled message's to: a JSON integer (a channel's ID, or one user's)
// or a JSON list of user IDs; nil when absent or bad.
func scheduledTo(c *call) []int {
	v, ok := c.p.JSON("to")
	if !ok {
		return nil
	}
	if n, isInt := jsonInt(v); isInt {
		return []int{int(min(max(n, 0), maxInt32))}
	}
	list, isList := v.([]any)
	if !isList {
		c.p.Fail(apierr.BadRequest("to is not an integer or a list of integers"))
		return nil
	}
	ids := []int{}
	for i, e := range list {
		n, isInt := jsonInt(e)
		if !isInt {
			c.p.Fail(apierr.BadRequest("to[%d] is not an integer", i))
			return nil
		}
		ids = append(ids, int(min(max(n, 0), maxInt32)))
	}
	return ids
}

// createScheduledMessage: POST /scheduled_messages.
func (s *Server) createScheduledMessage(c *call) (fields, error) {
	kind := c.p.RequiredEnum("type", s.messageTypes()...)
	if !c.p.Has("to") {
		c.p.Fail(apierr.Missing("to"))
	}
	to := scheduledTo(c)
	topic, topicGiven := c.p.String("topic")
	content := c.p.RequiredString("content")
	deliverAt := c.p.RequiredInt("scheduled_delivery_timestamp")
	c.p.Bool("read_by_sender", true) // taken, and changes nothing in the fake
	if err := c.done(); err != nil {
		return nil, err
	}
	m := realm.ScheduledMessage{Draft: realm.Draft{Direct: kind == "direct" || kind == "private", Topic: topic, TopicGiven: topicGiven, Content: content}, DeliverAt: deliverAt}
	if aerr := realm.ScheduledTarget(&m, to); aerr != nil {
		return nil, aerr
	}
	id, aerr := s.realm().CreateScheduledMessage(c.user.ID, m)
	if aerr != nil {
		return nil, aerr
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
	change.To = scheduledTo(c)
	change.Topic = optionalString(c, "topic")
	change.Content = optionalString(c, "content")
	if at, ok := c.p.Int("scheduled_delivery_timestamp"); ok {
		change.DeliverAt = &at
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return legacyResult(s.realm().EditScheduledMessage(c.user.ID, id, change))
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
	return legacyResult(s.realm().DeleteScheduledMessage(c.user.ID, id))
}
