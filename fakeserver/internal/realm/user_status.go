package realm

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Each user's status (UserDataState).

// UserStatus is a user's status: the fields the real server shows only when set.
type UserStatus struct {
	Away         bool   `json:"away,omitempty"`
	StatusText   string `json:"status_text,omitempty"`
	EmojiName    string `json:"emoji_name,omitempty"`
	EmojiCode    string `json:"emoji_code,omitempty"`
	ReactionType string `json:"reaction_type,omitempty"`
}

// MaxStatusTextLength is the real server's limit on a status text, in characters.
const MaxStatusTextLength = 60

// StatusChange is what POST /users/me/status asks for; nil leaves a field as it is.
type StatusChange struct {
	Away         *bool
	StatusText   *string
	EmojiName    *string
	EmojiCode    *string
	ReactionType *string
}

// UpdateStatusOf changes another user's status for an administrator (POST
// /users/{user_id}/status): the target must be an active human, then UpdateStatus's checks.
func (s *UserDataState) UpdateStatusOf(targetID int, c StatusChange) error {
	s.mu.RLock()
	target := s.accts.users[targetID]
	s.mu.RUnlock()
	switch {
	case target == nil || target.IsBot:
		return apierr.NoSuchUser
	case !target.IsActive:
		return apierr.BadRequest("User is deactivated")
	}
	return s.UpdateStatus(targetID, c)
}

// UpdateStatus changes the user's status with the real server's checks, in its order, and
// tells everyone of the fields that were given.
func (s *UserDataState) UpdateStatus(userID int, c StatusChange) error {
	if c.Away == nil && c.StatusText == nil && c.EmojiName == nil {
		return apierr.BadRequest("Client did not pass any new values.")
	}
	if c.StatusText != nil {
		text := strings.TrimSpace(*c.StatusText)
		if utf8.RuneCountInString(text) > MaxStatusTextLength {
			return apierr.BadRequest("status_text is too long (limit: %d characters)", MaxStatusTextLength)
		}
		c.StatusText = &text
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var emoji ReactionRequest
	switch {
	case c.EmojiName == nil && ((c.EmojiCode != nil && *c.EmojiCode != "") || (c.ReactionType != nil && *c.ReactionType != "")):
		return apierr.BadRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.")
	case c.EmojiName != nil && *c.EmojiName != "":
		emoji.EmojiName = *c.EmojiName
		if c.EmojiCode != nil {
			emoji.EmojiCode = *c.EmojiCode
		}
		if c.ReactionType != nil {
			emoji.ReactionType = *c.ReactionType
		}
		resolved, err := s.msgs.completeEmoji(emoji)
		if err != nil {
			return err
		}
		if err := s.msgs.checkEmoji(resolved); err != nil {
			return err
		}
		emoji = resolved
	}
	st := s.status[userID]
	ev := events.Event{"type": "user_status", "user_id": userID}
	if c.Away != nil {
		st.Away, ev["away"] = *c.Away, *c.Away
	}
	if c.StatusText != nil {
		st.StatusText, ev["status_text"] = *c.StatusText, *c.StatusText
	}
	if c.EmojiName != nil { // "" clears the emoji
		st.EmojiName, st.EmojiCode, st.ReactionType = emoji.EmojiName, emoji.EmojiCode, emoji.ReactionType
		if emoji.EmojiName == "" {
			st.ReactionType = UnicodeEmoji
		}
		ev["emoji_name"], ev["emoji_code"], ev["reaction_type"] = st.EmojiName, st.EmojiCode, st.ReactionType
	}
	s.status[userID] = st
	s.publish(ev, s.accts.activeUserIDs()...)
	return nil
}

// shown is the status as the API shows it: only the fields that are set.
func (st UserStatus) shown() UserStatus {
	if st.EmojiName == "" {
		st.EmojiCode, st.ReactionType = "", ""
	}
	return st
}

// Status is one user's status (GET /users/{user_id}/status): an active human's, as the real
// server's user lookup allows.
func (s *UserDataState) Status(targetID int) (UserStatus, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch u := s.accts.users[targetID]; {
	case u == nil || u.IsBot:
		return UserStatus{}, apierr.NoSuchUser
	case !u.IsActive:
		return UserStatus{}, apierr.BadRequest("User is deactivated")
	}
	return s.status[targetID].shown(), nil
}

// Statuses are the statuses that are set, keyed by user ID (register's user_status).
func (s *UserDataState) Statuses() map[string]UserStatus {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string]UserStatus{}
	for id, st := range s.status {
		if st = st.shown(); st != (UserStatus{}) {
			out[strconv.Itoa(id)] = st
		}
	}
	return out
}
