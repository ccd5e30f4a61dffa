package realm

import (
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Saved snippets: texts a user keeps to insert into messages.

// MaxSnippetTitleLength is the real server's limit on a saved snippet's title, in characters.
const MaxSnippetTitleLength = 60

// SavedSnippet is a saved snippet as the API shows it.
type SavedSnippet struct {
	ID          int    `json:"id"`
	Title       string `json:"title"`
	Content     string `json:"content"`
	DateCreated int64  `json:"date_created"`
}

type userSnippet struct {
	userID int
	SavedSnippet
}

// snippetField trims a title or content and applies the real server's limits to it.
func snippetField(name, value string, limit int) (string, error) {
	value = strings.TrimSpace(value)
	switch {
	case value == "":
		return "", apierr.BadRequest("%s cannot be blank", name)
	case utf8.RuneCountInString(value) > limit:
		return "", apierr.BadRequest("%s is too long (limit: %d characters)", name, limit)
	}
	return value, nil
}

// CreateSavedSnippet saves a snippet for the user (POST /saved_snippets).
func (s *UserDataState) CreateSavedSnippet(userID int, title, content string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	title, err := snippetField("title", title, MaxSnippetTitleLength)
	if err != nil {
		return 0, err
	}
	content, err = snippetField("content", content, s.settings.MaxMessageLength)
	if err != nil {
		return 0, err
	}
	if err := roomFor(s.accts, s.snippets, snippetOwner, userID, 1, MaxSavedSnippetsPerUser, "saved snippets"); err != nil {
		return 0, err
	}
	sn := &userSnippet{userID: userID, SavedSnippet: SavedSnippet{
		ID: nextID(&s.nextSnippet), Title: title, Content: content, DateCreated: s.Now(),
	}}
	s.snippets[sn.ID] = sn
	s.publish(events.Event{"type": "saved_snippets", "op": "add", "saved_snippet": sn.SavedSnippet}, userID)
	return sn.ID, nil
}

// EditSavedSnippet changes one of the user's snippets; nil leaves a field as it is, and a
// request that changes nothing succeeds without an event, as on the real server.
func (s *UserDataState) EditSavedSnippet(userID, id int, title, content *string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := SavedSnippet{}
	if title != nil {
		t, err := snippetField("title", *title, MaxSnippetTitleLength)
		if err != nil {
			return err
		}
		next.Title = t
	}
	if content != nil {
		c, err := snippetField("content", *content, s.settings.MaxMessageLength)
		if err != nil {
			return err
		}
		next.Content = c
	}
	if title == nil && content == nil {
		return nil
	}
	sn, err := own(s.snippets, snippetOwner, userID, id, errNoSnippet)
	if err != nil {
		return err
	}
	if title != nil {
		sn.Title = next.Title
	}
	if content != nil {
		sn.Content = next.Content
	}
	s.publish(events.Event{"type": "saved_snippets", "op": "update", "saved_snippet": sn.SavedSnippet}, userID)
	return nil
}

// DeleteSavedSnippet removes one of the user's snippets.
func (s *UserDataState) DeleteSavedSnippet(userID, id int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return deleteOwn(s.snippets, snippetOwner, userID, id, errNoSnippet, s.removeSnippet)
}

func (s *UserDataState) removeSnippet(sn *userSnippet) {
	delete(s.snippets, sn.ID)
	s.publish(events.Event{"type": "saved_snippets", "op": "remove", "saved_snippet_id": sn.ID}, sn.userID)
}

// errNoSnippet is the real server's answer for a snippet that is not the user's.
func errNoSnippet() error {
	return apierr.Of(apierr.KindNotFound, "BAD_REQUEST", "Saved snippet does not exist.")
}

// SavedSnippets lists the user's snippets in ID order.
func (s *UserDataState) SavedSnippets(userID int) []SavedSnippet {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return ownList(inIDOrder(s.snippets), snippetOwner, userID, func(sn *userSnippet) SavedSnippet { return sn.SavedSnippet })
}
