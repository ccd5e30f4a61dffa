package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// typingPerson is a user as typing events name them.
func (s *MessageState) typingPerson(u *User) map[string]any {
	return map[string]any{"user_id": u.ID, "email": s.accts.apiEmail(u)}
}

// SetDirectTyping tells the participants of a direct conversation that the user started or
// stopped composing to them (POST /typing, type direct). The participants include the user,
// as on the real server, and so does the audience.
func (s *MessageState) SetDirectTyping(userID int, to []int, start bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	if len(to) == 0 {
		return apierr.BadRequest("Empty 'to' list")
	}
	ids := []int{u.ID}
	for _, id := range to {
		target := s.accts.users[id]
		if target == nil || !target.IsActive {
			return apierr.BadRequest("Invalid user ID %d", id)
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	recipients := make([]map[string]any, 0, len(ids))
	for _, id := range ids {
		recipients = append(recipients, s.typingPerson(s.accts.users[id]))
	}
	if mutation.On("direct-typing-to-everyone") {
		ids = s.accts.activeUserIDs()
	}
	s.publish(events.Event{
		"type": "typing", "op": typingOp(start), "message_type": "direct", "sender": s.typingPerson(u), "recipients": recipients,
	}, ids...)
	return nil
}

// SetChannelTyping tells a channel's subscribers that the user started or stopped composing
// in a topic (POST /typing, type channel). The user must be allowed to send there. Only
// clients with the stream_typing_notifications capability get these events.
func (s *MessageState) SetChannelTyping(userID, channelID int, topic string, start bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	ch, err := s.chans.accessibleChannel(u, channelID)
	if err != nil {
		return err
	}
	if _, err := s.sendableChannel(u, Draft{ChannelID: ch.ID}); err != nil {
		return err
	}
	ev := events.Event{
		"type": "typing", "op": typingOp(start), "message_type": "stream", "sender": s.typingPerson(u),
		"stream_id": ch.ID, "topic": topic,
	}
	s.events.PublishEach(func(_ int, c events.Client) []events.Event {
		if !c.Can("stream_typing_notifications") {
			return nil
		}
		return []events.Event{ev}
	}, s.chans.subscriberIDs(ch)...)
	return nil
}

func typingOp(start bool) string {
	if start {
		return "start"
	}
	return "stop"
}
