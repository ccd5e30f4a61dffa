package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// getSavedSnippets: GET /saved_snippets.
func (s *Server) getSavedSnippets(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"saved_snippets": s.realm().SavedSnippets(c.user.ID)}, nil
}

// createSavedSnippet: POST /saved_snippets.
func (s *Server) createSavedSnippet(c *call) (fields, error) {
	title := c.p.RequiredString("title")
	content := c.p.RequiredString("content")
	if err := c.done(); err != nil {
		return nil, err
	}
	id, err := s.realm().CreateSavedSnippet(c.user.ID, title, content)
	if err != nil {
		return nil, err
	}
	return fields{"saved_snippet_id": id}, nil
}

// errSnippetMissing answers an ID too large to name a saved snippet.
var errSnippetMissing = apierr.New(404, "BAD_REQUEST", "Saved snippet does not exist.")

// editSavedSnippet: PATCH /saved_snippets/{saved_snippet_id}.
func (s *Server) editSavedSnippet(c *call) (fields, error) {
	id, err := c.pathID("saved_snippet_id", errSnippetMissing)
	if err != nil {
		return nil, err
	}
	title, content := optionalString(c, "title"), optionalString(c, "content")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().EditSavedSnippet(c.user.ID, id, title, content)
}

// deleteSavedSnippet: DELETE /saved_snippets/{saved_snippet_id}.
func (s *Server) deleteSavedSnippet(c *call) (fields, error) {
	id, err := c.pathID("saved_snippet_id", errSnippetMissing)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().DeleteSavedSnippet(c.user.ID, id)
}
