package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// addPlayground: POST /realm/playgrounds (operation 14).
func (s *Service) addPlayground(c *handler.Call) (handler.Fields, error) {
	name := c.P.RequiredString("name")
	language := c.P.RequiredString("pygments_language")
	var template string
	if s.realm().AtLeast(realm.LevelPlaygroundTemplate) {
		template = c.P.RequiredString("url_template")
	} else { // the URL before the code (playgroundList gives the same form)
		template = c.P.RequiredString("url_prefix") + "{code}"
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().AddPlayground(name, language, template)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"id": id}, nil
}

// removePlayground: DELETE /realm/playgrounds/{playground_id}.
func (s *Service) removePlayground(c *handler.Call) (handler.Fields, error) {
	return handler.ChangeByID(c, "playground_id", apierr.BadRequest("Invalid playground"), func(_, id int) error { return s.realm().RemovePlayground(id) })
}
