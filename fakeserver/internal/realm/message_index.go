package realm

import "strings"

// The message index: ascending message ids by channel topic (topics grouped case-insensitively,
// as topics are), by channel, by direct conversation, by sender, every id, each user's unread
// messages, and each user's newest message with a row. Topic listing, narrowed fetches, topic deletion and moves, marking
// messages read and max_message_id read it, so they cost what they return or change, not the
// realm's size.
//
// Every change of s.messages goes through storeMessage, dropMessages or moveIndexed, and every
// change of a stored message's rows through putRow, dropRow or setFlag (message_rows.go).
type messageIndex struct {
	all      idList
	topics   map[int]map[string]idList // channel -> topic key -> ids
	channels map[int]idList            // channel -> ids
	directs  map[string]idList         // a direct message's participants (joinInts) -> ids
	senders  map[int]idList            // sender -> ids
	unread   map[int]idList            // user -> ids of the messages whose row of theirs is unread
	newest   map[int]int               // user -> the newest message id with a row of theirs
}

func newMessageIndex() messageIndex {
	return messageIndex{
		topics: map[int]map[string]idList{}, channels: map[int]idList{}, directs: map[string]idList{}, senders: map[int]idList{}, unread: map[int]idList{},
		newest: map[int]int{},
	}
}

// addTo adds id to the list under key, making the list if needed.
func addTo[K comparable](m map[K]idList, key K, id int) { m[key] = m[key].with(id) }

// removeFrom removes id from the list under key, forgetting a list that becomes empty.
func removeFrom[K comparable](m map[K]idList, key K, id int) { removeAllFrom(m, key, []int{id}) }

// removeAllFrom removes ids from the list under key, forgetting a list that becomes empty.
func removeAllFrom[K comparable](m map[K]idList, key K, ids []int) {
	if l := m[key].withoutAll(ids); l.Len() > 0 {
		m[key] = l
	} else {
		delete(m, key)
	}
}

// topicKeyOf is the index key of a topic name.
func topicKeyOf(topic string) string { return strings.ToLower(topic) }

// storeMessage adds a new message, with its rows, to the realm and to the index, and returns
// the stored message: the realm keeps a copy of m (messageStore), which the caller goes on with.
func (s *MessageState) storeMessage(draft *Message) *Message {
	m := s.messages.put(draft)
	s.index.all = s.index.all.with(m.ID)
	addTo(s.index.senders, m.SenderID, m.ID)
	s.indexChannel(m)
	for _, row := range m.Rows {
		if row.flags&flagRead == 0 {
			addTo(s.index.unread, int(row.userID), m.ID)
		}
		s.index.newest[int(row.userID)] = max(s.index.newest[int(row.userID)], m.ID)
	}
	return m
}

// dropMessages removes messages from the realm and from the index: each list of the index is
// rewritten once, however many of its messages go.
func (s *MessageState) dropMessages(ms []*Message) {
	type topicRef struct {
		channel int
		key     string
	}
	all := make([]int, 0, len(ms))
	topics, directs := map[topicRef][]int{}, map[string][]int{}
	channels, senders, unread := map[int][]int{}, map[int][]int{}, map[int][]int{}
	for _, m := range ms {
		all = append(all, m.ID)
		senders[m.SenderID] = append(senders[m.SenderID], m.ID)
		if m.IsDirect {
			key := joinInts(m.Participants)
			directs[key] = append(directs[key], m.ID)
		} else {
			ref := topicRef{m.ChannelID, topicKeyOf(m.Topic)}
			topics[ref] = append(topics[ref], m.ID)
			channels[m.ChannelID] = append(channels[m.ChannelID], m.ID)
		}
		for _, row := range m.Rows {
			if row.flags&flagRead == 0 {
				unread[int(row.userID)] = append(unread[int(row.userID)], m.ID)
			}
		}
	}
	for ref, ids := range topics {
		if byTopic := s.index.topics[ref.channel]; byTopic != nil {
			removeAllFrom(byTopic, ref.key, ids)
		}
	}
	for key, ids := range directs {
		removeAllFrom(s.index.directs, key, ids)
	}
	for _, lists := range []struct {
		index map[int]idList
		ids   map[int][]int
	}{{s.index.channels, channels}, {s.index.senders, senders}, {s.index.unread, unread}} {
		for key, ids := range lists.ids {
			removeAllFrom(lists.index, key, ids)
		}
	}
	s.index.all = s.index.all.withoutAll(all)
	for _, m := range ms {
		s.messages.del(m.ID)
	}
	for _, m := range ms {
		for _, row := range m.Rows {
			s.forgetRow(int(row.userID), m.ID)
		}
	}
}

// forgetRow follows the loss of the user's row of message id (or of the message): when it was
// the user's newest, the next newest is found walking back from it.
func (s *MessageState) forgetRow(userID, id int) {
	if s.index.newest[userID] != id {
		return
	}
	delete(s.index.newest, userID)
	for older := range s.index.all.Before(id) {
		if s.messages.get(older).Rows.has(userID) {
			s.index.newest[userID] = older
			return
		}
	}
}

// moveIndexed applies change to each message, which may change its channel or topic, and keeps
// the index in step: each list the move touches is rewritten once, however many messages
// moved, and a change that keeps a message's channel and topic touches none (a content edit).
func (s *MessageState) moveIndexed(ms []*Message, change func(*Message)) {
	type topicRef struct {
		channel int
		key     string
	}
	leaving, joining := map[topicRef][]int{}, map[topicRef][]int{}
	channelsLeaving, channelsJoining := map[int][]int{}, map[int][]int{}
	for _, m := range ms {
		from := topicRef{m.ChannelID, topicKeyOf(m.Topic)}
		change(m)
		to := topicRef{m.ChannelID, topicKeyOf(m.Topic)}
		if m.IsDirect || to == from {
			continue
		}
		leaving[from] = append(leaving[from], m.ID)
		joining[to] = append(joining[to], m.ID)
		if to.channel != from.channel {
			channelsLeaving[from.channel] = append(channelsLeaving[from.channel], m.ID)
			channelsJoining[to.channel] = append(channelsJoining[to.channel], m.ID)
		}
	}
	for ref, ids := range leaving {
		byTopic := s.index.topics[ref.channel]
		if byTopic[ref.key] = byTopic[ref.key].withoutAll(ids); byTopic[ref.key].Len() == 0 {
			delete(byTopic, ref.key)
		}
	}
	for ref, ids := range joining {
		if s.index.topics[ref.channel] == nil {
			s.index.topics[ref.channel] = map[string]idList{}
		}
		s.index.topics[ref.channel][ref.key] = s.index.topics[ref.channel][ref.key].withAll(ids)
	}
	for channel, ids := range channelsLeaving {
		if s.index.channels[channel] = s.index.channels[channel].withoutAll(ids); s.index.channels[channel].Len() == 0 {
			delete(s.index.channels, channel)
		}
	}
	for channel, ids := range channelsJoining {
		s.index.channels[channel] = s.index.channels[channel].withAll(ids)
	}
}

// reindexUnread follows a change of the user's row of a stored message.
func (s *MessageState) reindexUnread(m *Message, userID int, wasUnread bool) {
	switch isUnread := m.Rows.unreadFor(userID); {
	case isUnread && !wasUnread:
		addTo(s.index.unread, userID, m.ID)
	case wasUnread && !isUnread:
		removeFrom(s.index.unread, userID, m.ID)
	}
}

func (s *MessageState) indexChannel(m *Message) {
	if m.IsDirect {
		addTo(s.index.directs, joinInts(m.Participants), m.ID)
		return
	}
	addTo(s.index.channels, m.ChannelID, m.ID)
	byTopic := s.index.topics[m.ChannelID]
	if byTopic == nil {
		byTopic = map[string]idList{}
		s.index.topics[m.ChannelID] = byTopic
	}
	addTo(byTopic, topicKeyOf(m.Topic), m.ID)
}

// topicMessageIDs returns the ids of a channel topic's messages, ascending.
func (s *MessageState) topicMessageIDs(channelID int, topic string) []int {
	return s.index.topics[channelID][topicKeyOf(topic)].ids()
}

// unreadIDs returns a copy of the ids of the user's unread messages, ascending: callers may
// mark them read while they walk it.
func (s *MessageState) unreadIDs(userID int) []int {
	return s.index.unread[userID].ids()
}
