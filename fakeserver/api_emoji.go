package fakeserver

// getRealmEmoji: GET /realm/emoji.
func (s *Server) getRealmEmoji(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"emoji": s.realm().RealmEmoji()}, nil
}
