package realm

import (
	"maps"
	"slices"
)

// The messages' part of the POST /register state: max_message_id and unread_msgs.

// MaxMessageID is the newest message the user has a row for (-1: none), as the real
// server's max_message_id.
func (s *MessageState) MaxMessageID(userID int) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if id, ok := s.index.newest[userID]; ok {
		return id
	}
	return -1
}

// UnreadMessages is unread_msgs: the user's unread messages grouped as the real server
// groups them (direct, group direct, channel topics) and the mentions among them.
func (s *MessageState) UnreadMessages(userID int) map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	type topicKey struct {
		channel int
		topic   string
	}
	direct := map[int][]int{}      // other user -> ids
	groups := map[string][]int{}   // participant ids "1,2,3" -> ids
	topics := map[topicKey][]int{} // channel topic -> ids
	var mentions []int
	ids := s.index.unread[userID]
	for id := range ids.All() {
		m := s.messages.get(id)
		switch {
		case !m.IsDirect:
			k := topicKey{m.ChannelID, m.Topic}
			topics[k] = append(topics[k], id)
		case len(m.Participants) <= 2:
			other := m.SenderID
			for _, p := range m.Participants {
				if p != userID {
					other = p
				}
			}
			direct[other] = append(direct[other], id)
		default:
			groups[joinInts(m.Participants)] = append(groups[joinInts(m.Participants)], id)
		}
		if flagsOf(m, userID)&flagsMentioned != 0 {
			mentions = append(mentions, id)
		}
	}
	pms := []map[string]any{}
	for _, other := range slices.Sorted(maps.Keys(direct)) {
		pms = append(pms, map[string]any{"other_user_id": other, "sender_id": other, "unread_message_ids": direct[other]})
	}
	huddles := []map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		huddles = append(huddles, map[string]any{"user_ids_string": key, "unread_message_ids": groups[key]})
	}
	streams := []map[string]any{}
	keys := slices.SortedFunc(maps.Keys(topics), func(a, b topicKey) int { return topics[a][0] - topics[b][0] })
	for _, k := range keys {
		streams = append(streams, map[string]any{"stream_id": k.channel, "topic": k.topic, "unread_message_ids": topics[k]})
	}
	if mentions == nil {
		mentions = []int{}
	}
	return map[string]any{
		"count": ids.Len(), "pms": pms, "huddles": huddles, "streams": streams, "mentions": mentions,
		"old_unreads_missing": false,
	}
}
