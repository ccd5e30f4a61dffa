package realm

import (
	"slices"
	"strings"
)

// The topic index: each channel's topics, grouped case-insensitively as topics are, with the
// ids of their messages in ascending order. Topic listing, a topic's messages and narrowed
// fetches by channel and topic read it, so they cost what they return, not the realm's size.
// Every change of s.messages goes through storeMessage, dropMessage or moveIndexed.

// topicIDs is one topic's message ids, ascending.
type topicIDs []int

// topicKeyOf is the index key of a topic name.
func topicKeyOf(topic string) string { return strings.ToLower(topic) }

// storeMessage adds a new message to the realm and to the index. Ids only grow, so the list
// of every id stays in order by appending.
func (s *State) storeMessage(m *Message) {
	s.messages[m.ID] = m
	s.ids = append(s.ids, m.ID)
	s.indexTopic(m)
}

// dropMessage removes a message from the realm and from the index.
func (s *State) dropMessage(m *Message) {
	s.unindexTopic(m)
	if i, found := slices.BinarySearch(s.ids, m.ID); found {
		s.ids = slices.Delete(s.ids, i, i+1)
	}
	delete(s.messages, m.ID)
}

// moveIndexed applies change, which may change the message's channel or topic, and keeps the
// index in step.
func (s *State) moveIndexed(m *Message, change func()) {
	s.unindexTopic(m)
	change()
	s.indexTopic(m)
}

func (s *State) indexTopic(m *Message) {
	if m.IsDirect {
		return
	}
	if s.topics == nil {
		s.topics = map[int]map[string]topicIDs{}
	}
	byTopic := s.topics[m.ChannelID]
	if byTopic == nil {
		byTopic = map[string]topicIDs{}
		s.topics[m.ChannelID] = byTopic
	}
	key := topicKeyOf(m.Topic)
	ids := byTopic[key]
	// New messages have the highest id: an append; a moved one is inserted in order.
	if n := len(ids); n == 0 || ids[n-1] < m.ID {
		byTopic[key] = append(ids, m.ID)
		return
	}
	i, found := slices.BinarySearch(ids, m.ID)
	if !found {
		byTopic[key] = slices.Insert(ids, i, m.ID)
	}
}

func (s *State) unindexTopic(m *Message) {
	if m.IsDirect {
		return
	}
	byTopic := s.topics[m.ChannelID]
	key := topicKeyOf(m.Topic)
	ids := byTopic[key]
	if i, found := slices.BinarySearch(ids, m.ID); found {
		ids = slices.Delete(ids, i, i+1)
		if len(ids) == 0 {
			delete(byTopic, key)
		} else {
			byTopic[key] = ids
		}
	}
}

// topicMessageIDs returns the ids of a channel topic's messages, ascending (nil for none). The
// slice belongs to the index: callers read it under the lock and never keep or change it.
func (s *State) topicMessageIDs(channelID int, topic string) []int {
	return s.topics[channelID][topicKeyOf(topic)]
}
