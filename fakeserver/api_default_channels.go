package fakeserver

// addDefaultChannel: POST /default_streams — administrators only.
func (s *Server) addDefaultChannel(c *call) (fields, error) {
	id := channelIDParam(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	if aerr := s.realm().AddDefaultChannel(c.user.ID, id); aerr != nil {
		return nil, aerr
	}
	return fields{}, nil
}

// removeDefaultChannel: DELETE /default_streams — administrators only.
func (s *Server) removeDefaultChannel(c *call) (fields, error) {
	id := channelIDParam(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	if aerr := s.realm().RemoveDefaultChannel(c.user.ID, id); aerr != nil {
		return nil, aerr
	}
	return fields{}, nil
}
