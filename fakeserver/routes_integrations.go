package fakeserver

import "github.com/go-chi/chi/v5"

// integrationRoutes adds the authenticated routes of uploads and attachments, reminders, bot storage, push devices, video calls (issue 6).
func (s *Server) integrationRoutes(r chi.Router) {}

// integrationRegisterState adds this area's state to a POST /register response; fetch tells
// whether the client asked for an event type's state.
func (s *Server) integrationRegisterState(c *call, fetch func(eventType string) bool, f fields) {}
