package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// addPlayground: POST /realm/playgrounds (operation 14).
func (s *Server) addPlayground(c *call) (fields, error) {
	name := c.p.RequiredString("name")
	language := c.p.RequiredString("pygments_language")
	var template string
	if s.realm().AtLeast(realm.LevelPlaygroundTemplate) {
		template = c.p.RequiredString("url_template")
	} else { // the URL before the code (playgroundList gives the same form)
		template = c.p.RequiredString("url_prefix") + "{code}"
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	id, err := s.realm().AddPlayground(name, language, template)
	if err != nil {
		return nil, err
	}
	return fields{"id": id}, nil
}

// removePlayground: DELETE /realm/playgrounds/{playground_id}.
func (s *Server) removePlayground(c *call) (fields, error) {
	id, err := c.pathID("playground_id", apierr.BadRequest("Invalid playground"))
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().RemovePlayground(id)
}
