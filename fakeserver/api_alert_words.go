package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
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
