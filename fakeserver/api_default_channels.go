package fakeserver

// addDefaultChannel: POST /default_streams — administrators only.
func (s *Server) addDefaultChannel(c *call) (fields, error) {
	id := channelIDParam(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().AddDefaultChannel(c.user.ID, id)
}

// removeDefaultChannel: DELETE /default_streams — administrators only.
func (s *Server) removeDefaultChannel(c *call) (fields, error) {
	id := channelIDParam(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().RemoveDefaultChannel(c.user.ID, id)
}
