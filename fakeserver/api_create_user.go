package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// createUser: POST /users (operation 11); administrators with can_create_users.
func (s *Server) createUser(c *call) (fields, error) {
	email := c.p.RequiredString("email")
	password := c.p.RequiredString("password")
	fullName := c.p.RequiredString("full_name")
	if err := c.done(); err != nil {
		return nil, err
	}
	id, err := s.realm().CreateUser(c.user.ID, email, password, fullName)
	if err != nil {
		return nil, err
	}
	if mutation.On("create-user-id-of-next") {
		id++
	}
	return fields{"user_id": id}, nil
}
