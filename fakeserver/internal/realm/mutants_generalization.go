package realm

import (
	"slices"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Helpers of the measured-generalization mutants (docs/generalization.md): breakages drawn at
// random from the API document, written as an implementer plausibly makes them.

// storedOf is the listed keys that the storage holds: what a server that fails only when no
// named key is stored goes on to remove.
func (b *botStore) storedOf(keys []string) []string {
	var kept []string
	for _, k := range keys {
		if _, ok := b.lookup(k); ok {
			kept = append(kept, k)
		}
	}
	return kept
}

// storesAny says whether the storage holds at least one of the listed keys.
func (b *botStore) storesAny(keys []string) bool { return len(b.storedOf(keys)) > 0 }

// realEmails writes each recipient's real address over the API address: a display_recipient
// built from the account rows without the email visibility rule.
func realEmails(recipients []Recipient, users map[int]*User) {
	for i := range recipients {
		recipients[i].Email = users[recipients[i].ID].Email
	}
}

// sentBy keeps the messages the user sent: a whole-topic move that takes "my messages of
// the topic" for the topic.
func sentBy(ms []*Message, userID int) []*Message {
	return slices.DeleteFunc(slices.Clone(ms), func(m *Message) bool { return m.SenderID != userID })
}

// truncateBytes is truncate counting bytes, not characters: the limit of a server that
// measures content with len().
func truncateBytes(text string, limit int, marker string) string {
	if len(text) <= limit {
		return text
	}
	keep := limit - len(marker)
	for keep > 0 && !utf8.RuneStart(text[keep]) {
		keep--
	}
	return text[:max(keep, 0)] + marker
}

// movedTopicsKept is the topic-listed-after-moved-away switch, read where a move empties a
// topic and where topics are listed: a topic list that a move adds to and never drops from.
func movedTopicsKept() bool { return mutation.On("topic-listed-after-moved-away") }

// movedFrom are the moved messages as they were before the move, for keepEmptiedTopics.
func movedFrom(moved []*Message, channelID int, topic string) []*Message {
	out := make([]*Message, len(moved))
	for i, m := range moved {
		out[i] = &Message{ID: m.ID, ChannelID: channelID, Topic: topic}
	}
	return out
}

// oldestAttachmentOf is the user's attachment of the lowest ID: what a delete that looks the
// attachment up by its position in the user's list, not by its ID, removes.
func (s *UploadState) oldestAttachmentOf(userID int) *Attachment {
	for _, a := range s.attachmentList() {
		if a.OwnerID == userID {
			return a
		}
	}
	return nil
}

// ownersCounted is how many owners the only-owner rule sees: the active human owners, or
// under its mutant every human owner, deactivated ones too.
func (s *AccountState) ownersCounted() int {
	if !mutation.On("only-owner-counts-deactivated") {
		return s.activeHumanOwners()
	}
	n := 0
	for _, u := range s.users {
		if u.Role == RoleOwner && !u.IsBot {
			n++
		}
	}
	return n
}

// sendersLatest is the sender's newest message of m's conversation as u reads it: the message
// a content edit changes on a server that edits "the last message" rather than the one named.
func (s *MessageState) sendersLatest(u *User, m *Message) *Message {
	if m.IsDirect {
		return m
	}
	latest := m
	for _, o := range s.topicMessages(u, m.ChannelID, m.Topic) {
		if o.SenderID == m.SenderID && o.ID > latest.ID {
			latest = o
		}
	}
	return latest
}

// oldestContentEdit is the time of the message's first content edit: last_edit_timestamp read
// from the wrong end of an oldest-first history.
func oldestContentEdit(m *Message) int64 {
	if e, ok := firstContentEdit(m); ok {
		return e.Timestamp
	}
	return m.LastEditTime
}

// firstContentEdit is the oldest entry of the message's history that changed its content.
func firstContentEdit(m *Message) (EditEntry, bool) {
	i := slices.IndexFunc(m.EditHistory, func(e EditEntry) bool { return e.PrevContent != nil })
	if i < 0 {
		return EditEntry{}, false
	}
	return m.EditHistory[i], true
}

// sortByFirstMessage orders topics by when they began, newest first: recency read as the
// topic's first message rather than its last.
func (s *MessageState) sortByFirstMessage(topics []Topic, channelID int) {
	first := func(t Topic) int { return s.index.topics[channelID][topicKeyOf(t.Name)].First() }
	slices.SortStableFunc(topics, func(a, b Topic) int { return first(b) - first(a) })
}

// contentAsSent is the message's content before its first content edit: a raw_content read
// from a copy kept at send time.
func contentAsSent(m *Message) string {
	if e, ok := firstContentEdit(m); ok {
		return *e.PrevContent
	}
	return m.Content
}
