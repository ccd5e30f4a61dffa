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

// createConstructorGroupsCall: POST /calls/constructorgroups/create (from feature level 460) —
// {"url": <the user's room>}, where the server has the provider's credentials (the fake's
// video_calls_configured). It takes no parameters.
func (s *Server) createConstructorGroupsCall(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	url, err := s.realm().ConstructorGroupsRoom(c.user.ID, s.Config().VideoCallsConfigured)
	if err != nil {
		return nil, err
	}
	return fields{"url": url}, nil
}

// createNextcloudTalkCall: POST /calls/nextcloud_talk/create (from feature level 465) — a new
// conversation named room_name and {"url": <its call URL>}, where the server has the
// provider's credentials. The name is not part of the URL, so the fake keeps it nowhere.
func (s *Server) createNextcloudTalkCall(c *call) (fields, error) {
	c.p.RequiredString("room_name")
	if err := c.done(); err != nil {
		return nil, err
	}
	url, err := s.realm().NextcloudTalkRoom(s.Config().VideoCallsConfigured)
	if err != nil {
		return nil, err
	}
	return fields{"url": url}, nil
}
