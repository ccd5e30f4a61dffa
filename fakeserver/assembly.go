package fakeserver

import (
	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
)

// outsideRoutes adds what the fake serves outside the API and its files: its description and
// the control API under /_fake/, behind its guard.
func (s *Server) outsideRoutes(r chi.Router) {
	r.Get(describePath, s.serveDescription)
	r.Route(pipeline.ControlPrefix, func(r chi.Router) {
		r.Use(s.guardControl)
		s.controlRoutes(r)
	})
}
