package realm

import (
	"slices"
	"testing"
)

// audienceByMap is messageAudience as it was written with a set: the reference the list
// version is held to.
func audienceByMap(s *MessageState, m *Message) []int {
	set := map[int]bool{}
	for _, id := range m.Rows.userIDs() {
		set[id] = true
	}
	if ch := s.chans.channels[m.ChannelID]; ch != nil && !m.IsDirect && ch.HistoryPublicToSubscribers {
		for id := range ch.Subscribers {
			set[id] = true
		}
	}
	ids := make([]int, 0, len(set))
	for id := range set {
		if u := s.accts.users[id]; u != nil && u.IsActive {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// The audience of every message, after the realm changed every way the index test changes
// it (moves across channels of public and protected history, direct messages, deletions) and
// after a user is deactivated, is what the set gave.
func TestMessageAudienceMatchesTheSet(t *testing.T) {
	s := newIndexedRealm(t)
	changeRealm(t, s)
	check := func(step string) {
		t.Helper()
		for id, m := range s.messages.all() {
			if got, want := s.messageAudience(m), audienceByMap(s.MessageState, m); !slices.Equal(got, want) {
				t.Errorf("%s: message %d: audience %v, the set's %v", step, id, got, want)
			}
		}
	}
	check("changed")
	if err := s.DeactivateUser(1, 4); err != nil {
		t.Fatal(err)
	}
	check("a user deactivated")
}
