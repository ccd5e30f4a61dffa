package realm

import (
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// markRead marks read the user's unread messages that match, newest first in one event, and
// returns their IDs in order.
func (s *MessageState) markRead(userID int, match func(*Message) bool) []int {
	ids := []int{}
	for _, id := range s.unreadIDs(userID) {
		if m := s.messages.get(id); match(m) {
			s.setFlag(m, userID, "read", true)
			ids = append(ids, m.ID)
		}
	}
	if len(ids) > 0 {
		s.publishFlagChange(userID, true, "read", ids)
	}
	return ids
}

// MarkChannelAsRead implements POST /mark_stream_as_read: every unread message of a channel
// the user can access becomes read.
func (s *MessageState) MarkChannelAsRead(userID, channelID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, err := s.chans.accessibleChannel(s.accts.users[userID], channelID)
	if err != nil {
		return err
	}
	s.markRead(userID, func(m *Message) bool { return !m.IsDirect && m.ChannelID == ch.ID })
	return nil
}

// MarkTopicAsRead implements POST /mark_topic_as_read: the unread messages of one topic
// (matched case-insensitively; the empty topic's display name names the empty topic)
// become read. A topic without a message the user can read is no such topic.
func (s *MessageState) MarkTopicAsRead(userID, channelID int, topic string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	ch, err := s.chans.accessibleChannel(u, channelID)
	if err != nil {
		return err
	}
	name := s.topicNamed(topic)
	inTopic := func(m *Message) bool {
		return !m.IsDirect && m.ChannelID == ch.ID && strings.EqualFold(m.Topic, name)
	}
	readable := func(id int) bool { return s.canRead(u, s.messages.get(id)) }
	if !slices.ContainsFunc(s.topicMessageIDs(ch.ID, name), readable) {
		return apierr.BadRequest("No such topic '%s'", topic)
	}
	s.markRead(userID, inTopic)
	return nil
}
