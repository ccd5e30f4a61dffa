package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// createUser: POST /users (operation 11); administrators with can_create_users.
func (s *Service) createUser(c *handler.Call) (handler.Fields, error) {
	email := c.P.RequiredString("email")
	password := "generated-password"
	if !mutation.On("create-user-password-optional") || c.P.Has("password") {
		password = c.P.RequiredString("password")
	}
	fullName := c.P.RequiredString("full_name")
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().CreateUser(c.User.ID, email, password, fullName)
	if err != nil {
		return nil, err
	}
	if mutation.On("create-user-id-of-next") {
		id++
	}
	return handler.Fields{"user_id": id}, nil
}
