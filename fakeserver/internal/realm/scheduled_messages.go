package realm

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Scheduled messages: a message a user writes now for the server to send at a later time, on
// the fake's clock, as the user. One that cannot be sent when due stays listed, failed.

// ScheduledMessage is a message waiting to be sent: the Draft it will be sent as (Channel
// names are not kept: a channel is named by ID) and its time, UNIX seconds.
type ScheduledMessage struct {
	Draft
	DeliverAt int64
}

type scheduledMessage struct {
	id, userID int
	ScheduledMessage
	failed bool
}

// ScheduledMessageView is a scheduled message as the API shows it: to is the channel's ID, or
// the other participants' IDs (the user alone for a message to oneself).
type ScheduledMessageView struct {
	ScheduledMessageID         int     `json:"scheduled_message_id"`
	Type                       string  `json:"type"` // "stream" or "private"
	To                         any     `json:"to"`
	Topic                      *string `json:"topic,omitempty"` // channel messages only
	Content                    string  `json:"content"`
	RenderedContent            string  `json:"rendered_content"`
	ScheduledDeliveryTimestamp int64   `json:"scheduled_delivery_timestamp"`
	Failed                     bool    `json:"failed"`
}

// checkFuture refuses a delivery time that is not in the future (on the fake's clock).
func (s *UserDataState) checkFuture(at int64) error {
	if at <= s.Now() {
		return apierr.BadRequest("Scheduled delivery time must be in the future.")
	}
	return nil
}

// scheduledTarget sets a message's channel or recipients from a request's to, read as the
// real server reads it for the message's type: a channel's ID as an integer; recipients as a
// JSON list of user IDs (repeats dropped).
func scheduledTarget(m *ScheduledMessage, to string) error {
	if !m.Direct {
		id, err := strconv.Atoi(strings.TrimSpace(to))
		if err != nil {
			return apierr.BadRequest("Invalid data type for channel ID")
		}
		m.ChannelID = id
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(to))
	dec.UseNumber()
	var list []any
	if dec.Decode(&list) != nil || dec.More() {
		return apierr.BadRequest("Invalid data type for recipients")
	}
	m.Recipients = nil
	for _, v := range list {
		n, isNum := v.(json.Number)
		id, err := strconv.ParseInt(string(n), 10, 32)
		if !isNum || err != nil {
			return apierr.BadRequest("Recipient list may only contain user IDs")
		}
		if !slices.Contains(m.Recipients, int(id)) {
			m.Recipients = append(m.Recipients, int(id))
		}
	}
	return nil
}

// checkScheduled applies the checks of sending to a scheduled message (under a lock), in the
// real server's order: the topic's presence, the content, then the channel or recipients; it
// returns the message as kept.
func (s *UserDataState) checkScheduled(u *User, m ScheduledMessage) (ScheduledMessage, error) {
	if !m.Direct && !m.TopicGiven {
		return m, apierr.BadRequest("Missing topic")
	}
	content, err := s.msgs.normalizeContent(m.Content)
	if err != nil {
		return m, err
	}
	m.Content = content
	if m.Direct {
		if _, err := s.msgs.directRecipients(u, m.Recipients); err != nil {
			return m, err
		}
		return m, nil
	}
	ch, err := s.msgs.sendableChannel(u, m.Draft)
	if err != nil {
		return m, err
	}
	topic, err := s.msgs.normalizeTopic(m.Topic)
	if err != nil {
		return m, err
	}
	m.ChannelID, m.Channel, m.Topic = ch.ID, "", topic
	return m, nil
}

// CreateScheduledMessage schedules a message (POST /scheduled_messages) to the channel or
// recipients to names; the time is checked first.
func (s *UserDataState) CreateScheduledMessage(userID int, m ScheduledMessage, to string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkFuture(m.DeliverAt); err != nil {
		return 0, err
	}
	if err := scheduledTarget(&m, to); err != nil {
		return 0, err
	}
	m, err := s.checkScheduled(s.accts.users[userID], m)
	if err != nil {
		return 0, err
	}
	if err := roomFor(s.accts, s.scheduled, scheduledOwner, userID, 1, MaxScheduledMessagesPerUser, "scheduled messages"); err != nil {
		return 0, err
	}
	sm := &scheduledMessage{id: nextID(&s.nextScheduled), userID: userID, ScheduledMessage: m}
	s.scheduled[sm.id] = sm
	s.publish(events.Event{"type": "scheduled_messages", "op": "add", "scheduled_messages": []ScheduledMessageView{s.scheduledView(sm)}}, userID)
	return sm.id, nil
}

// ScheduledChange is what PATCH /scheduled_messages/{id} asks for: each field nil when absent.
type ScheduledChange struct {
	Direct    *bool
	To        *string
	Topic     *string
	Content   *string
	DeliverAt *int64
}

// EditScheduledMessage changes one of the user's scheduled messages, with the real server's
// checks in its order: the request's own, then the message's existence, then the changed
// message's as a new one's (a failed one is tried again when due).
func (s *UserDataState) EditScheduledMessage(userID, id int, c ScheduledChange) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case c.Direct == nil && c.To == nil && c.Topic == nil && c.Content == nil && c.DeliverAt == nil:
		return apierr.BadRequest("Nothing to change")
	case c.Direct != nil && c.To == nil:
		return apierr.BadRequest("Recipient required when updating type of scheduled message.")
	case c.Direct != nil && !*c.Direct && c.Topic == nil:
		return apierr.BadRequest("Topic required when updating scheduled message type to stream.")
	}
	if c.DeliverAt != nil {
		if err := s.checkFuture(*c.DeliverAt); err != nil {
			return err
		}
	}
	sm, err := own(s.scheduled, scheduledOwner, userID, id, errNoScheduled)
	if err != nil {
		return err
	}
	m := sm.ScheduledMessage
	if c.Direct != nil {
		m.Direct = *c.Direct
	}
	if c.To != nil {
		if err := scheduledTarget(&m, *c.To); err != nil {
			return err
		}
	}
	if c.Topic != nil {
		m.Topic, m.TopicGiven = *c.Topic, true
	}
	if c.Content != nil {
		m.Content = *c.Content
	}
	if c.DeliverAt != nil {
		m.DeliverAt = *c.DeliverAt
	}
	m, err = s.checkScheduled(s.accts.users[userID], m)
	if err != nil {
		return err
	}
	sm.ScheduledMessage, sm.failed = m, false
	s.publish(events.Event{"type": "scheduled_messages", "op": "update", "scheduled_message": s.scheduledView(sm)}, userID)
	return nil
}

// DeleteScheduledMessage cancels one of the user's scheduled messages.
func (s *UserDataState) DeleteScheduledMessage(userID, id int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return deleteOwn(s.scheduled, scheduledOwner, userID, id, errNoScheduled, s.removeScheduled)
}

func (s *UserDataState) removeScheduled(sm *scheduledMessage) {
	delete(s.scheduled, sm.id)
	s.publish(events.Event{"type": "scheduled_messages", "op": "remove", "scheduled_message_id": sm.id}, sm.userID)
}

// errNoScheduled is the real server's answer for a scheduled message that is not the user's.
func errNoScheduled() error {
	return apierr.Of(apierr.KindNotFound, "BAD_REQUEST", "Scheduled message does not exist")
}

// ScheduledMessages lists the user's scheduled messages, the soonest first.
func (s *UserDataState) ScheduledMessages(userID int) []ScheduledMessageView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return ownList(s.scheduledInOrder(), scheduledOwner, userID, s.scheduledView)
}

// scheduledInOrder is every scheduled message, by time and then ID.
func (s *UserDataState) scheduledInOrder() []*scheduledMessage {
	all := slices.Collect(maps.Values(s.scheduled))
	slices.SortFunc(all, func(a, b *scheduledMessage) int {
		if a.DeliverAt != b.DeliverAt {
			return int(a.DeliverAt - b.DeliverAt)
		}
		return a.id - b.id
	})
	return all
}

func (s *UserDataState) scheduledView(sm *scheduledMessage) ScheduledMessageView {
	v := ScheduledMessageView{
		ScheduledMessageID: sm.id, Content: sm.Content, RenderedContent: s.msgs.render(sm.Content).HTML,
		ScheduledDeliveryTimestamp: sm.DeliverAt, Failed: sm.failed,
	}
	if sm.Direct {
		others := []int{}
		for _, id := range sm.Recipients {
			if id != sm.userID && !slices.Contains(others, id) {
				others = append(others, id)
			}
		}
		if len(others) == 0 {
			others = []int{sm.userID}
		}
		slices.Sort(others)
		v.Type, v.To = "private", others
	} else {
		topic := sm.Topic
		v.Type, v.To, v.Topic = "stream", sm.ChannelID, &topic
	}
	return v
}

// deliverDueScheduled sends every scheduled message whose time has come, in time order
// (under the lock): sent, it is removed; refused (the user lost access, or was deactivated),
// it stays, failed.
func (s *UserDataState) deliverDueScheduled() {
	for _, sm := range s.scheduledInOrder() {
		if sm.failed || sm.DeliverAt > s.Now() {
			continue
		}
		u := s.accts.users[sm.userID]
		if u == nil || !u.IsActive {
			s.failScheduled(sm)
			continue
		}
		d := sm.Draft
		d.Client = "Internal"
		if _, err := s.msgs.store(sm.userID, d, sm.Content, s.msgs.render(sm.Content)); err != nil {
			s.failScheduled(sm)
			continue
		}
		s.removeScheduled(sm)
	}
}

func (s *UserDataState) failScheduled(sm *scheduledMessage) {
	sm.failed = true
	s.publish(events.Event{"type": "scheduled_messages", "op": "update", "scheduled_message": s.scheduledView(sm)}, sm.userID)
}
