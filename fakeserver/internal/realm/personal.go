package realm

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Alert words, status and muted users: data each user keeps for themselves (UserDataState).

// MaxAlertWordLength is the real server's limit on an alert word, in characters.
const MaxAlertWordLength = 100

// AlertWords lists the user's alert words, in the order they were added.
func (s *UserDataState) AlertWords(userID int) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.alertWordsOf(userID)
}

func (s *UserDataState) alertWordsOf(userID int) []string {
	return append([]string{}, s.alertWords[userID]...)
}

// AddAlertWords adds words (trimmed; blank ones dropped), skipping those the user has already
// in any case, and answers the whole list. Checked whole before anything changes.
func (s *UserDataState) AddAlertWords(userID int, words []string) ([]string, error) {
	for i, w := range words {
		if utf8.RuneCountInString(w) > MaxAlertWordLength {
			return nil, apierr.BadRequest("alert_words[%d] is too long (limit: %d characters)", i, MaxAlertWordLength)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.alertWords[userID]
	for _, w := range words {
		w = strings.TrimSpace(w)
		if w != "" && !slices.ContainsFunc(list, func(have string) bool { return strings.EqualFold(have, w) }) {
			list = append(list, w)
		}
	}
	s.alertWords[userID] = list
	s.publishAlertWords(userID)
	return s.alertWordsOf(userID), nil
}

// RemoveAlertWords removes the words, in any case, and answers what is left; words the user
// does not have are ignored, as on the real server.
func (s *UserDataState) RemoveAlertWords(userID int, words []string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.alertWords[userID] = slices.DeleteFunc(s.alertWords[userID], func(have string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(have, strings.TrimSpace(w)) })
	})
	s.publishAlertWords(userID)
	return s.alertWordsOf(userID)
}

func (s *UserDataState) publishAlertWords(userID int) {
	s.publish(events.Event{"type": "alert_words", "alert_words": s.alertWordsOf(userID)}, userID)
}

// The characters the real server's Markdown processor accepts around an alert word: a word
// inside a longer word does not alert.
const (
	alertBefore = " \n(\".,';[*`>"
	alertAfter  = " \n)\"?:.,';]!*`"
)

// hasAlertWord tells whether content holds one of the user's alert words, in any case, with
// a boundary the real server accepts on each side.
func (s *UserDataState) hasAlertWord(userID int, content string) bool {
	lower := strings.ToLower(content)
	for _, w := range s.alertWords[userID] {
		w = strings.ToLower(w)
		for at := 0; ; {
			i := strings.Index(lower[at:], w)
			if i < 0 {
				break
			}
			start, end := at+i, at+i+len(w)
			if (start == 0 || strings.IndexByte(alertBefore, lower[start-1]) >= 0) &&
				(end == len(lower) || strings.IndexByte(alertAfter, lower[end]) >= 0) {
				return true
			}
			at = start + 1
		}
	}
	return false
}

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

// ReadReceipts lists, in ID order, the users who have read a message the requester can read
// (GET /messages/{id}/read_receipts), as the real server counts them: active users with a
// read row, not the sender, neither a user the requester muted nor one who muted the
// requester. Every user of the fake shares read receipts (send_read_receipts is on).
func (s *UserDataState) ReadReceipts(requesterID, messageID int) ([]int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, err := s.msgs.accessibleMessage(s.accts.users[requesterID], messageID)
	if err != nil {
		return nil, err
	}
	out := []int{}
	for _, id := range m.Rows.userIDs() {
		flags, _ := m.Rows.get(id)
		u := s.accts.users[id]
		if u == nil || !u.IsActive || id == m.SenderID || !flags.has("read") || s.hasMuted(requesterID, id) || s.hasMuted(id, requesterID) {
			continue
		}
		out = append(out, id)
	}
	return out, nil
}
