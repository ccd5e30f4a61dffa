package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// DeleteMessage removes one message (DELETE /messages/{id}): administrators delete any message
// they can read, senders their own within the delete time limit (none when unlimited).
func (s *MessageState) DeleteMessage(requesterID, messageID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[requesterID]
	m, err := s.accessibleMessage(u, messageID)
	if err != nil {
		return err
	}
	limit := s.org.editing.MessageContentDeleteLimit
	own := m.SenderID == u.ID && (limit == nil || s.Now()-m.Timestamp <= int64(*limit))
	if !u.IsAdmin() && !own {
		return apierr.BadRequest("You don't have permission to delete this message")
	}
	s.deleteMessages([]*Message{m})
	if singleDeletionsKeepTopics() {
		s.keepEmptiedTopics([]*Message{m})
	}
	return nil
}

// Batching bounds the work of one delete-topic or mark-all-as-read request, as the real
// server's time budget does: MaxBatches batches of BatchSize messages, 0 meaning no bound.
type Batching struct {
	BatchSize  int
	MaxBatches int
}

// run works through messages newest first, a batch at a time, and reports whether it
// finished before the bound stopped it (the request then answers complete=false).
func (b Batching) run(ms []*Message, do func(batch []*Message)) (complete bool) {
	slices.SortFunc(ms, func(x, y *Message) int { return y.ID - x.ID })
	if mutation.On("batches-oldest-first") {
		slices.Reverse(ms)
	}
	size := b.BatchSize
	if size <= 0 {
		size = len(ms) + 1
	}
	for batch := 0; len(ms) > 0; batch++ {
		if b.MaxBatches > 0 && batch == b.MaxBatches {
			return mutation.On("batch-stopped-reports-complete") // stopped: not complete
		}
		n := min(size, len(ms))
		do(ms[:n])
		ms = ms[n:]
	}
	return true
}

// deleteMessages removes messages, tells everyone who had them, and moves the first_message_id
// of every channel whose oldest message went.
func (s *MessageState) deleteMessages(ms []*Message) {
	type group struct {
		channelID int
		topic     string
	}
	byGroup := map[group][]*Message{}
	s.dropMessages(ms)
	if emptiedTopicsKept() {
		s.keepEmptiedTopics(ms)
	}
	for _, m := range ms {
		g := group{m.ChannelID, m.Topic}
		byGroup[g] = append(byGroup[g], m)
	}
	for g, list := range byGroup {
		slices.SortFunc(list, func(a, b *Message) int { return a.ID - b.ID })
		readers := s.readersOf(list)
		if mutation.On("deletion-events-to-everyone") {
			readers = s.everyoneReads(list)
		}
		s.publishDeletion(readers, s.chans.channels[g.channelID], g.topic)
	}
	for g := range byGroup {
		// Before its level the real server left first_message_id as it was (its changelog).
		if ch := s.chans.channels[g.channelID]; ch != nil && s.atLeast(LevelFirstMessageOnDeletion) {
			s.refreshFirstMessageID(ch)
		}
	}
	s.uploads.afterMessagesDeleted(ms)
}

// refreshFirstMessageID recomputes a channel's oldest message and announces a change.
func (s *MessageState) refreshFirstMessageID(ch *Channel) {
	if mutation.On("first-message-id-stale") {
		return
	}
	first := s.index.channels[ch.ID].First()
	if first == ch.FirstMessageID {
		return
	}
	if mutation.On("first-message-id-event-old-value") {
		old := ch.FirstMessageID
		ch.FirstMessageID = first
		s.chans.channelUpdate(ch, "first_message_id", old)
		return
	}
	ch.FirstMessageID = first
	var value any = first
	if first == 0 {
		value = nil
	}
	s.chans.channelUpdate(ch, "first_message_id", value)
}
