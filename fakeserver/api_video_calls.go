package fakeserver

// createVideoCall: POST /calls/vcall/create (operation 21). The real server has no such
// endpoint, only one per provider; the fake follows
// its Zoom pattern, which newer providers copy: the server's credentials first, then the
// user's token, then {"url": <join URL>}. It takes no parameters.
func (s *Server) createVideoCall(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	url, err := s.realm().CreateVideoCall(c.user.ID, s.Config().VideoCallsConfigured)
	if err != nil {
		return nil, err
	}
	return fields{"url": url}, nil
}
