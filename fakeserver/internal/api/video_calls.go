package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// createVideoCall: POST /calls/vcall/create (operation 21). The real server has no such
// endpoint, only one per provider; the fake follows
// its Zoom pattern, which newer providers copy: the server's credentials first, then the
// user's token, then {"url": <join URL>}. It takes no parameters.
func (s *Service) createVideoCall(c *handler.Call) (handler.Fields, error) {
	return callURL(c, func() (string, error) {
		return s.realm().CreateVideoCall(c.User.ID, s.cfg().VideoCallsConfigured)
	})
}

// createConstructorGroupsCall: POST /calls/constructorgroups/create (from feature level 460) —
// {"url": <the user's room>}, where the server has the provider's credentials (the fake's
// video_calls_configured). It takes no parameters.
func (s *Service) createConstructorGroupsCall(c *handler.Call) (handler.Fields, error) {
	return callURL(c, func() (string, error) {
		return s.realm().ConstructorGroupsRoom(c.User.ID, s.cfg().VideoCallsConfigured)
	})
}

// createNextcloudTalkCall: POST /calls/nextcloud_talk/create (from feature level 465) — a new
// conversation named room_name and {"url": <its call URL>}, where the server has the
// provider's credentials. The name is not part of the URL, so the fake keeps it nowhere.
func (s *Service) createNextcloudTalkCall(c *handler.Call) (handler.Fields, error) {
	c.P.RequiredString("room_name")
	return callURL(c, func() (string, error) {
		return s.realm().NextcloudTalkRoom(s.cfg().VideoCallsConfigured)
	})
}

// callURL ends a call route whose parameters have been read: a parameter error first, then
// the provider's refusal or {"url": <the call's URL>}, the shape every provider's reply shares.
func callURL(c *handler.Call, create func() (string, error)) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	url, err := create()
	if err != nil {
		return nil, err
	}
	return handler.Fields{"url": url}, nil
}
