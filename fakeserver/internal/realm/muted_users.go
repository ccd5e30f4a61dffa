package realm

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// The users each user muted (UserDataState).

// MutedUser is one entry of a user's muted users.
type MutedUser struct {
	ID        int   `json:"id"`
	Timestamp int64 `json:"timestamp"`
}

// MuteUser mutes a user for userID (POST /users/me/muted_users/{id}), with the real server's
// checks: not oneself, an existing user (bots too, from level 188; deactivated ones too), not
// twice.
func (s *UserDataState) MuteUser(userID, targetID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID == targetID {
		return apierr.BadRequest("Cannot mute self")
	}
	target := s.accts.users[targetID]
	if target == nil || (target.IsBot && !s.atLeast(LevelMuteBots)) {
		return apierr.NoSuchUser
	}
	muted := s.muted[userID]
	if _, done := muted[targetID]; done {
		return apierr.BadRequest("User already muted")
	}
	if muted == nil {
		muted = map[int]int64{}
		s.muted[userID] = muted
	}
	muted[targetID] = s.Now()
	s.publishMuted(userID)
	// What muting hides: the muted user's messages to the muter are read from now on.
	s.msgs.markRead(userID, func(m *Message) bool { return m.SenderID == targetID })
	return nil
}

// UnmuteUser unmutes a user for userID (DELETE /users/me/muted_users/{id}).
func (s *UserDataState) UnmuteUser(userID, targetID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.accts.users[targetID] == nil {
		return apierr.NoSuchUser
	}
	if _, muted := s.muted[userID][targetID]; !muted {
		return apierr.BadRequest("User is not muted")
	}
	delete(s.muted[userID], targetID)
	s.publishMuted(userID)
	return nil
}

// MutedUsers lists the users userID muted, in ID order.
func (s *UserDataState) MutedUsers(userID int) []MutedUser {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mutedUsersOf(userID)
}

func (s *UserDataState) mutedUsersOf(userID int) []MutedUser {
	out := []MutedUser{}
	muted := s.muted[userID]
	for _, id := range slices.Sorted(maps.Keys(muted)) {
		out = append(out, MutedUser{ID: id, Timestamp: muted[id]})
	}
	return out
}

func (s *UserDataState) publishMuted(userID int) {
	s.publish(events.Event{"type": "muted_users", "muted_users": s.mutedUsersOf(userID)}, userID)
}

// hasMuted tells whether userID muted senderID.
func (s *UserDataState) hasMuted(userID, senderID int) bool {
	_, muted := s.muted[userID][senderID]
	return muted
}
