package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// MarkAllAsRead marks the user's unread messages read, newest first in batches
// (POST /mark_all_as_read). complete is false when the bound stopped it early; the client
// repeats the request to finish.
func (s *MessageState) MarkAllAsRead(userID int, b Batching) (complete bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var unread []*Message
	for _, id := range s.unreadIDs(userID) {
		unread = append(unread, s.messages.get(id))
	}
	if mutation.On("mark-all-read-skips-direct") {
		unread = slices.DeleteFunc(unread, func(m *Message) bool { return m.IsDirect })
	}
	return b.run(unread, func(batch []*Message) {
		ids := make([]int, 0, len(batch))
		for _, m := range batch {
			s.setFlag(m, userID, "read", true)
			if mutation.On("mark-all-read-for-everyone") {
				s.markReadForEveryone(m)
			}
			ids = append(ids, m.ID)
		}
		slices.Sort(ids)
		// The event announces the change: the read flag added (the mutant says removed).
		s.publishFlagChange(userID, !mutation.On("mark-all-read-event-says-unread"), "read", ids)
	})
}
