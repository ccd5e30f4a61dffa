package fakeserver

// updateUserByEmail: PATCH /users/{email} (operation 2) — as PATCH /users/{user_id}, the
// user named by a real address the requester may see or by the dummy user<id>@<realm host>.
func (s *Server) updateUserByEmail(c *call) (fields, error) {
	email, err := pathEmail(c)
	if err != nil {
		return nil, err
	}
	up := userUpdate(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateUserByEmail(c.user.ID, email, up)
}
