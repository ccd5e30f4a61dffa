package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Topics lists a channel's topics that u can see, most recent first. Topic names are grouped
// case-insensitively and shown with the spelling of their latest message, as the real server does.
func (s *MessageState) Topics(userID, channelID int, allowEmptyName bool) ([]Topic, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[userID]
	if mutation.On("topics-missing-channel-empty") && s.chans.channels[channelID] == nil {
		return []Topic{}, nil
	}
	ch, err := s.chans.accessibleChannel(u, channelID)
	if existing := s.chans.channels[channelID]; mutation.On("topics-private-channel-listed") && existing != nil {
		ch, err = existing, nil
	}
	if err != nil {
		return nil, err
	}
	if mutation.On("topics-allowed-empty-name-shown-display") {
		allowEmptyName = false
	}
	readable := s.canRead
	if mutation.On("topics-protected-history-shown") {
		readable = func(*User, *Message) bool { return true }
	}
	topics := make([]Topic, 0, len(s.index.topics[ch.ID]))
	add := func(m *Message) {
		t := Topic{Name: m.Topic, MaxID: m.ID}
		if t.Name == "" && !allowEmptyName {
			t.Name = s.settings.EmptyTopicDisplayName
		}
		topics = append(topics, t)
	}
	for _, ids := range s.index.topics[ch.ID] {
		// The newest message of the topic the user may read: usually the newest of all, read
		// without walking the list.
		if m := s.messages.get(ids.Last()); m != nil && readable(u, m) {
			add(m)
			continue
		}
		for id := range ids.Backward() {
			if m := s.messages.get(id); readable(u, m) {
				add(m)
				break
			}
		}
	}
	if emptiedTopicsKept() || singleDeletionsKeepTopics() || movedTopicsKept() {
		topics = append(topics, s.keptTopicsOf(ch.ID)...)
	}
	if mutation.On("topics-of-every-channel") {
		topics = append(topics, s.otherChannelsTopics(u, ch.ID)...)
	}
	slices.SortFunc(topics, func(a, b Topic) int { return b.MaxID - a.MaxID })
	if mutation.On("topics-by-first-message") {
		s.sortByFirstMessage(topics, ch.ID)
	}
	if mutation.On("topics-oldest-first") {
		slices.Reverse(topics)
	}
	if mutation.On("topic-max-id-of-first-message") {
		s.firstIDsAsMax(topics, ch.ID)
	}
	return topics, nil
}
