package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// alertWordsParam reads the required alert_words, a JSON list of strings.
func alertWordsParam(c *call) []string {
	if !c.p.Has("alert_words") {
		c.p.Fail(apierr.Missing("alert_words"))
		return nil
	}
	return stringList(c, "alert_words")
}

// getAlertWords: GET /users/me/alert_words.
func (s *Server) getAlertWords(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"alert_words": s.realm().AlertWords(c.user.ID)}, nil
}

// addAlertWords: POST /users/me/alert_words — answers the whole list.
func (s *Server) addAlertWords(c *call) (fields, error) {
	words := alertWordsParam(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	list, err := s.realm().AddAlertWords(c.user.ID, words)
	if err != nil {
		return nil, err
	}
	return fields{"alert_words": list}, nil
}

// removeAlertWords: DELETE /users/me/alert_words — answers what is left.
func (s *Server) removeAlertWords(c *call) (fields, error) {
	words := alertWordsParam(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"alert_words": s.realm().RemoveAlertWords(c.user.ID, words)}, nil
}

// statusChange reads a status change; away only where the route takes it (the own status).
func statusChange(c *call, withAway bool) realm.StatusChange {
	var change realm.StatusChange
	if withAway && c.p.Has("away") {
		away := c.p.Bool("away", false)
		change.Away = &away
	}
	change.StatusText = optionalString(c, "status_text")
	change.EmojiName = optionalString(c, "emoji_name")
	change.EmojiCode = optionalString(c, "emoji_code")
	change.ReactionType = optionalString(c, "reaction_type")
	return change
}

// updateStatus: POST /users/me/status.
func (s *Server) updateStatus(c *call) (fields, error) {
	change := statusChange(c, true)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateStatus(c.user.ID, change)
}

// updateStatusOf: POST /users/{user_id}/status — an administrator sets another user's
// status; administrators' bots too from LevelAdminBotStatus.
func (s *Server) updateStatusOf(c *call) (fields, error) {
	if c.user.IsBot && !s.realm().AtLeast(realm.LevelAdminBotStatus) {
		return nil, apierr.BadRequest("This endpoint does not accept bot requests.")
	}
	id, err := c.pathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	change := statusChange(c, false)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateStatusOf(id, change)
}

// getStatus: GET /users/{user_id}/status.
func (s *Server) getStatus(c *call) (fields, error) {
	id, err := c.pathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	st, err := s.realm().Status(id)
	if err != nil {
		return nil, err
	}
	return fields{"status": st}, nil
}

// muteUser: POST /users/me/muted_users/{muted_user_id}.
func (s *Server) muteUser(c *call) (fields, error) {
	return s.changeMute(c, s.realm().MuteUser)
}

// unmuteUser: DELETE /users/me/muted_users/{muted_user_id}.
func (s *Server) unmuteUser(c *call) (fields, error) {
	return s.changeMute(c, s.realm().UnmuteUser)
}

func (s *Server) changeMute(c *call, change func(userID, targetID int) error) (fields, error) {
	id, err := c.pathID("muted_user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, change(c.user.ID, id)
}

// getReadReceipts: GET /messages/{message_id}/read_receipts.
func (s *Server) getReadReceipts(c *call) (fields, error) {
	id, err := c.pathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	ids, err := s.realm().ReadReceipts(c.user.ID, id)
	if err != nil {
		return nil, err
	}
	return fields{"user_ids": ids}, nil
}

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
