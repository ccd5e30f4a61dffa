package fakeserver

import "github.com/go-chi/chi/v5"

// Router exposes the chi router to the external tests, which walk it so that every route
// the fake serves must have bad-input cases.
func (s *Server) Router() chi.Routes { return s.handler }
