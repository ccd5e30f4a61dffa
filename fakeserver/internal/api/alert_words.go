package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// alertWordsParam reads the required alert_words, a JSON list of strings.
func alertWordsParam(c *handler.Call) []string {
	if !c.P.Has("alert_words") {
		c.P.Fail(apierr.Missing("alert_words"))
		return nil
	}
	return stringList(c, "alert_words")
}

// getAlertWords: GET /users/me/alert_words.
func (s *Service) getAlertWords(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"alert_words": s.realm().AlertWords(c.User.ID)}, nil
}

// addAlertWords: POST /users/me/alert_words — answers the whole list.
func (s *Service) addAlertWords(c *handler.Call) (handler.Fields, error) {
	words := alertWordsParam(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	list, err := s.realm().AddAlertWords(c.User.ID, words)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"alert_words": list}, nil
}

// removeAlertWords: DELETE /users/me/alert_words — answers what is left.
func (s *Service) removeAlertWords(c *handler.Call) (handler.Fields, error) {
	words := alertWordsParam(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"alert_words": s.realm().RemoveAlertWords(c.User.ID, words)}, nil
}
