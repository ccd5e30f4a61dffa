package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// SetEditTyping tells the other users who can see a message that the user started or stopped
// editing it (POST /messages/{id}/typing). The user must be allowed to edit the content now,
// without the grace the edit itself gets, as on the real server.
func (s *MessageState) SetEditTyping(userID, messageID int, start bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	m, err := s.accessibleMessage(u, messageID)
	if mutation.On("edit-typing-invisible-message-accepted") && err != nil {
		return nil
	}
	if err != nil {
		return err
	}
	if err := s.checkCanEditContent(u, m, 0); err != nil {
		return err
	}
	op := "stop"
	if start {
		op = "start"
	}
	ev := events.Event{"type": "typing_edit_message", "op": op, "sender_id": u.ID, "message_id": m.ID}
	var audience []int
	if m.IsDirect {
		ev["recipient"] = map[string]any{"type": "direct", "user_ids": m.Participants}
		audience = slices.Clone(m.Participants)
	} else {
		ch := s.chans.channels[m.ChannelID]
		ev["recipient"] = map[string]any{"type": "channel", "channel_id": ch.ID, "topic": m.Topic}
		for id := range ch.Subscribers {
			audience = append(audience, id)
		}
	}
	if mutation.On("edit-typing-to-everyone") {
		audience = s.accts.activeUserIDs()
	}
	audience = slices.DeleteFunc(audience, func(id int) bool { return id == u.ID })
	slices.Sort(audience)
	s.publish(ev, audience...)
	return nil
}
