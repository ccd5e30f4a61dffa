package fakeserver

import "github.com/go-chi/chi/v5"

// accountRoutes adds the authenticated routes of users, roles, groups, JWT authentication, custom profile fields (issue 5).
func (s *Server) accountRoutes(r chi.Router) {}

// accountRegisterState adds this area's state to a POST /register response; fetch tells
// whether the client asked for an event type's state.
func (s *Server) accountRegisterState(c *call, fetch func(eventType string) bool, f fields) {}

// publicAccountRoutes adds the account routes that take no credentials (JWT login).
func (s *Server) publicAccountRoutes(r chi.Router) {}
