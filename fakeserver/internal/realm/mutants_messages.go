package realm

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Helpers of the mutation points of messages, edits and topics (package mutation), kept here so
// that each point stays a one-statement hook.

// firstTopic is the topic a message had before its first topic change.
func firstTopic(m *Message) string {
	for _, e := range m.EditHistory {
		if e.PrevTopic != nil {
			return *e.PrevTopic
		}
	}
	return m.Topic
}

// readByAnyone adds read to flags when any user has read the message: read per message, not
// per user.
func readByAnyone(m *Message, flags []string) []string {
	if slices.Contains(flags, "read") {
		return flags
	}
	for _, r := range m.Rows {
		if r.flags.has("read") {
			return append(flags, "read")
		}
	}
	return flags
}

// topicWildcardAsChannel reports a topic wildcard mention as a channel wildcard mention.
func topicWildcardAsChannel(flags []string) []string {
	out := make([]string, 0, len(flags))
	for _, f := range flags {
		if f == "topic_wildcard_mentioned" {
			f = "stream_wildcard_mentioned"
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// topicInEveryChannel is the topic's messages in every channel the user can access: a topic
// named in one channel deleted in all.
func (s *MessageState) topicInEveryChannel(u *User, topic string) []*Message {
	var out []*Message
	for id, ch := range s.chans.channels {
		if ch.canAccess(u) {
			out = append(out, s.topicMessages(u, id, topic)...)
		}
	}
	return out
}

// markReadForEveryone marks a message read for every user who has it: per message, not per
// user.
func (s *MessageState) markReadForEveryone(m *Message) {
	for _, id := range m.Rows.userIDs() {
		s.setFlag(m, id, "read", true)
	}
}

// firstChannel is the channel a message was sent to, before any channel move.
func firstChannel(m *Message) int {
	for _, e := range m.EditHistory {
		if e.PrevStream != 0 {
			return e.PrevStream
		}
	}
	return m.ChannelID
}

// everyTopicMessage is every message of a channel's topic, also those no one asking may read.
func (s *MessageState) everyTopicMessage(channelID int, topic string) []*Message {
	var out []*Message
	for _, id := range s.topicMessageIDs(channelID, topic) {
		out = append(out, s.messages.get(id))
	}
	return out
}

// otherChannelsTopics are the topics of every channel but channelID that u can access.
func (s *MessageState) otherChannelsTopics(u *User, channelID int) []Topic {
	var out []Topic
	for id, ch := range s.chans.channels {
		if id == channelID || !ch.canAccess(u) {
			continue
		}
		for _, ids := range s.index.topics[id] {
			if ids.Len() > 0 {
				m := s.messages.get(ids.Last())
				out = append(out, Topic{Name: m.Topic, MaxID: m.ID})
			}
		}
	}
	return out
}

// everyoneReads is readersOf as if every active user could read every message.
func (s *MessageState) everyoneReads(ms []*Message) map[int][]int {
	readable := map[int][]int{}
	for _, id := range s.accts.activeUserIDs() {
		for _, m := range ms {
			readable[id] = append(readable[id], m.ID)
		}
	}
	return readable
}

// emptiedTopicsKept is the emptied-topic-still-listed switch, one point read where a deletion
// empties topics and where topics are listed: off, both hooks compile away.
func emptiedTopicsKept() bool { return mutation.On("emptied-topic-still-listed") }

// keepEmptiedTopics remembers the topics that the deletion of ms left without a message, with
// the ID of their newest deleted message: a topic list kept apart from the messages, which
// forgets to drop them.
func (s *MessageState) keepEmptiedTopics(ms []*Message) {
	type topicRef struct {
		channel int
		key     string
	}
	newest := map[topicRef]*Message{}
	for _, m := range ms {
		ref := topicRef{m.ChannelID, topicKeyOf(m.Topic)}
		if !m.IsDirect && s.index.topics[m.ChannelID][ref.key].Len() == 0 && (newest[ref] == nil || newest[ref].ID < m.ID) {
			newest[ref] = m
		}
	}
	if s.keptTopics == nil {
		s.keptTopics = map[int][]Topic{}
	}
	for _, m := range newest {
		s.keptTopics[m.ChannelID] = append(s.keptTopics[m.ChannelID], Topic{Name: m.Topic, MaxID: m.ID})
	}
}

// keptTopicsOf are the topics of a channel that keepEmptiedTopics kept and that have no
// message again.
func (s *MessageState) keptTopicsOf(channelID int) []Topic {
	var out []Topic
	for _, t := range s.keptTopics[channelID] {
		if s.index.topics[channelID][topicKeyOf(t.Name)].Len() == 0 {
			out = append(out, t)
		}
	}
	return out
}

// singleDeletionsKeepTopics: a topic list kept apart from the messages that delete topic
// updates but single deletions do not, so a topic emptied message by message stays listed.
func singleDeletionsKeepTopics() bool { return mutation.On("topic-listed-after-messages-deleted") }

// contentEditsFirst orders an edit history's content edits before its moves, each part still
// newest first: a history kept in two lists and joined.
func contentEditsFirst(views []EditEntryView) {
	isMove := func(v EditEntryView) int {
		if v.PrevContent == nil {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(views, func(a, b EditEntryView) int { return isMove(a) - isMove(b) })
}

// reactionList is a message's reactions; the reactions-as-names mutant writes them as the
// emoji names alone.
type reactionList []ReactionView

// MarshalJSON writes the reaction objects, or under the mutant their emoji names.
func (l reactionList) MarshalJSON() ([]byte, error) { return l.appendJSON(nil) }

func (l reactionList) appendJSON(b []byte) ([]byte, error) {
	if !mutation.On("reactions-as-names") {
		return appendJSONList(b, []ReactionView(l))
	}
	names := make([]string, len(l))
	for i, r := range l {
		names[i] = r.EmojiName
	}
	return appendMarshaled(b, names)
}

// flagList is a message's flags; the flags-numeric-codes mutant writes each as its number in
// a table of flags, as a database stores it, in place of its name.
type flagList []string

// flagNumbers are the flags the document names, numbered from 1 in this order under the mutant.
var flagNumbers = []string{"read", "starred", "collapsed", "mentioned", "stream_wildcard_mentioned",
	"topic_wildcard_mentioned", "wildcard_mentioned", "has_alert_word", "historical"}

// MarshalJSON writes the flags' names, or under the mutant their numbers.
func (l flagList) MarshalJSON() ([]byte, error) { return l.appendJSON(nil) }

func (l flagList) appendJSON(b []byte) ([]byte, error) {
	if mutation.On("flags-numeric-codes") {
		codes := make([]int, len(l))
		for i, f := range l {
			codes[i] = slices.Index(flagNumbers, f) + 1
		}
		return appendMarshaled(b, codes)
	}
	if l == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, f := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, f)
	}
	return append(b, ']'), nil
}

// listJSON is v's JSON without HTML escaping, so that the list reads byte for byte as the
// replies' encoder (which escapes no HTML) would have written it, whichever encoder calls.
func listJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
