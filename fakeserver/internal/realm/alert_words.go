package realm

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Each user's alert words (UserDataState).

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
