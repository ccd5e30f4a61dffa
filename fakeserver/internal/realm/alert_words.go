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

// MaxAlertWords bounds the alert words of one user. The real server has no such bound; every
// message a user receives is searched for each of them, under the realm's lock.
const MaxAlertWords = 1000

// alertWordKey is the form in which two alert words are the same: the real server compares
// them lower-cased.
func alertWordKey(w string) string { return strings.ToLower(w) }

// AddAlertWords adds words (trimmed; blank ones dropped), skipping those the user has already
// in any case, and answers the whole list. Checked whole before anything changes; the words
// are checked and told apart before the lock is taken, so that what runs under it is linear
// in the user's words, of which there are at most MaxAlertWords.
func (s *UserDataState) AddAlertWords(userID int, words []string) ([]string, error) {
	var fresh []string
	seen := map[string]bool{}
	for i, w := range words {
		if utf8.RuneCountInString(w) > MaxAlertWordLength {
			return nil, apierr.BadRequest("alert_words[%d] is too long (limit: %d characters)", i, MaxAlertWordLength)
		}
		if w = strings.TrimSpace(w); w != "" && !seen[alertWordKey(w)] {
			seen[alertWordKey(w)] = true
			fresh = append(fresh, w)
		}
	}
	tooMany := apierr.BadRequest("A user can have at most %d alert words.", MaxAlertWords)
	if len(fresh) > MaxAlertWords {
		return nil, tooMany
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.alertWords[userID]
	for _, have := range list {
		delete(seen, alertWordKey(have))
	}
	if len(list)+len(seen) > MaxAlertWords {
		return nil, tooMany
	}
	for _, w := range fresh {
		if seen[alertWordKey(w)] {
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
	gone := make(map[string]bool, len(words))
	for _, w := range words {
		gone[alertWordKey(strings.TrimSpace(w))] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.alertWords[userID] = slices.DeleteFunc(s.alertWords[userID], func(have string) bool { return gone[alertWordKey(have)] })
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
	words := s.alertWords[userID]
	if len(words) == 0 {
		return false
	}
	lower := strings.ToLower(content)
	for _, w := range words {
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
