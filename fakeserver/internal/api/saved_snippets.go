package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// getSavedSnippets: GET /saved_snippets.
func (s *Service) getSavedSnippets(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"saved_snippets": s.realm().SavedSnippets(c.User.ID)}, nil
}

// createSavedSnippet: POST /saved_snippets.
func (s *Service) createSavedSnippet(c *handler.Call) (handler.Fields, error) {
	title := c.P.RequiredString("title")
	content := c.P.RequiredString("content")
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().CreateSavedSnippet(c.User.ID, title, content)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"saved_snippet_id": id}, nil
}

// errSnippetMissing answers an ID too large to name a saved snippet.
var errSnippetMissing = apierr.New(404, "BAD_REQUEST", "Saved snippet does not exist.")

// editSavedSnippet: PATCH /saved_snippets/{saved_snippet_id}.
func (s *Service) editSavedSnippet(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("saved_snippet_id", errSnippetMissing)
	if err != nil {
		return nil, err
	}
	title, content := optionalString(c, "title"), optionalString(c, "content")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().EditSavedSnippet(c.User.ID, id, title, content)
}

// deleteSavedSnippet: DELETE /saved_snippets/{saved_snippet_id}.
func (s *Service) deleteSavedSnippet(c *handler.Call) (handler.Fields, error) {
	return handler.ChangeByID(c, "saved_snippet_id", errSnippetMissing, s.realm().DeleteSavedSnippet)
}
