package realm

import (
	"maps"
	"slices"

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

// checkScheduled applies the checks of sending, and the time's, to a scheduled message (under
// a lock), in the real server's order: the time first; it returns the message as kept.
func (s *State) checkScheduled(u *User, m ScheduledMessage) (ScheduledMessage, *apierr.Error) {
	if m.DeliverAt <= s.Now() {
		return m, apierr.BadRequest("Scheduled delivery time must be in the future.")
	}
	content, err := s.normalizeContent(m.Content)
	if err != nil {
		return m, err
	}
	m.Content = content
	if m.Direct {
		if _, err := s.directRecipients(u, m.Recipients); err != nil {
			return m, err
		}
		return m, nil
	}
	ch, err := s.sendableChannel(u, m.Draft)
	if err != nil {
		return m, err
	}
	if !m.TopicGiven {
		return m, apierr.BadRequest("Missing topic")
	}
	topic, err := s.normalizeTopic(m.Topic)
	if err != nil {
		return m, err
	}
	m.ChannelID, m.Channel, m.Topic = ch.ID, "", topic
	return m, nil
}

// CreateScheduledMessage schedules a message (POST /scheduled_messages).
func (s *State) CreateScheduledMessage(userID int, m ScheduledMessage) (int, *apierr.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.checkScheduled(s.users[userID], m)
	if err != nil {
		return 0, err
	}
	sm := &scheduledMessage{id: nextID(&s.personal.nextScheduled), userID: userID, ScheduledMessage: m}
	s.personal.scheduled[sm.id] = sm
	s.publish(events.Event{"type": "scheduled_messages", "op": "add", "scheduled_messages": []ScheduledMessageView{s.scheduledView(sm)}}, userID)
	return sm.id, nil
}

// ScheduledChange is what PATCH /scheduled_messages/{id} asks for: each field nil when absent.
type ScheduledChange struct {
	Direct    *bool
	To        []int // the channel's ID alone, or the recipients' IDs; nil: unchanged
	Topic     *string
	Content   *string
	DeliverAt *int64
}

// ScheduledTarget sets a message's channel or recipients from a request's to: a channel
// message names exactly one channel.
func ScheduledTarget(m *ScheduledMessage, to []int) *apierr.Error {
	if m.Direct {
		m.Recipients = to
		return nil
	}
	if len(to) != 1 {
		return apierr.BadRequest("Invalid data type for channel ID")
	}
	m.ChannelID = to[0]
	return nil
}

// EditScheduledMessage changes one of the user's scheduled messages; the result is checked as
// a new one is (a failed one is tried again when due).
func (s *State) EditScheduledMessage(userID, id int, c ScheduledChange) *apierr.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sm := s.personal.scheduled[id]
	if sm == nil || sm.userID != userID {
		return errNoScheduled()
	}
	if c.Direct == nil && c.To == nil && c.Topic == nil && c.Content == nil && c.DeliverAt == nil {
		return apierr.BadRequest("Nothing to change")
	}
	m := sm.ScheduledMessage
	if c.Direct != nil && *c.Direct != m.Direct {
		if c.To == nil { // a change of type needs its recipients
			return apierr.BadRequest("Scheduled message type changed but no recipients were given.")
		}
		m.Direct = *c.Direct
	}
	if c.To != nil {
		if err := ScheduledTarget(&m, c.To); err != nil {
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
	m, err := s.checkScheduled(s.users[userID], m)
	if err != nil {
		return err
	}
	sm.ScheduledMessage, sm.failed = m, false
	s.publish(events.Event{"type": "scheduled_messages", "op": "update", "scheduled_message": s.scheduledView(sm)}, userID)
	return nil
}

// DeleteScheduledMessage cancels one of the user's scheduled messages.
func (s *State) DeleteScheduledMessage(userID, id int) *apierr.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sm := s.personal.scheduled[id]
	if sm == nil || sm.userID != userID {
		return errNoScheduled()
	}
	s.removeScheduled(sm)
	return nil
}

func (s *State) removeScheduled(sm *scheduledMessage) {
	delete(s.personal.scheduled, sm.id)
	s.publish(events.Event{"type": "scheduled_messages", "op": "remove", "scheduled_message_id": sm.id}, sm.userID)
}

// errNoScheduled is the real server's answer for a scheduled message that is not the user's.
func errNoScheduled() *apierr.Error {
	return apierr.New(404, "BAD_REQUEST", "Scheduled message does not exist")
}

// ScheduledMessages lists the user's scheduled messages, the soonest first.
func (s *State) ScheduledMessages(userID int) []ScheduledMessageView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []ScheduledMessageView{}
	for _, sm := range s.scheduledInOrder() {
		if sm.userID == userID {
			out = append(out, s.scheduledView(sm))
		}
	}
	return out
}

// scheduledInOrder is every scheduled message, by time and then ID.
func (s *State) scheduledInOrder() []*scheduledMessage {
	all := slices.Collect(maps.Values(s.personal.scheduled))
	slices.SortFunc(all, func(a, b *scheduledMessage) int {
		if a.DeliverAt != b.DeliverAt {
			return int(a.DeliverAt - b.DeliverAt)
		}
		return a.id - b.id
	})
	return all
}

func (s *State) scheduledView(sm *scheduledMessage) ScheduledMessageView {
	v := ScheduledMessageView{
		ScheduledMessageID: sm.id, Content: sm.Content, RenderedContent: s.render(sm.Content).HTML,
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
func (s *State) deliverDueScheduled() {
	for _, sm := range s.scheduledInOrder() {
		if sm.failed || sm.DeliverAt > s.Now() {
			continue
		}
		u := s.users[sm.userID]
		if u == nil || !u.IsActive {
			s.failScheduled(sm)
			continue
		}
		d := sm.Draft
		d.Client = "Internal"
		if _, err := s.store(sm.userID, d, sm.Content, s.render(sm.Content)); err != nil {
			s.failScheduled(sm)
			continue
		}
		s.removeScheduled(sm)
	}
}

func (s *State) failScheduled(sm *scheduledMessage) {
	sm.failed = true
	s.publish(events.Event{"type": "scheduled_messages", "op": "update", "scheduled_message": s.scheduledView(sm)}, sm.userID)
}
