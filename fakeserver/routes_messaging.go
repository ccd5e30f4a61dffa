package fakeserver

import "github.com/go-chi/chi/v5"

// messagingRoutes adds the authenticated routes of message editing and moving, topic muting, narrows, read marking, typing, reactions (issue 4).
func (s *Server) messagingRoutes(r chi.Router) {}

// messagingRegisterState adds this area's state to a POST /register response; fetch tells
// whether the client asked for an event type's state.
func (s *Server) messagingRegisterState(c *call, fetch func(eventType string) bool, f fields) {}
