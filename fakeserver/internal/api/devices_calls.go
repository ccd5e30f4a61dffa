package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// removeClientDevice: POST /remove_client_device (from feature level 470).
func (s *Service) removeClientDevice(c *handler.Call) (handler.Fields, error) {
	id := c.P.RequiredInt("device_id")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveClientDevice(c.User.ID, id)
}

// testNotification: POST /mobile_push/test_notification (from feature level 217) — to the
// legacy registration with the given token, or to all the user's. The fake delivers nothing.
func (s *Service) testNotification(c *handler.Call) (handler.Fields, error) {
	token := optionalString(c, "token")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().CheckTestNotification(c.User.ID, token)
}

// e2eeTestNotification: POST /mobile_push/e2ee/test_notification (from feature level 420) —
// to the user's encrypted registrations, or the one named by device_id (push_account_id
// before the registration's redesign). The fake delivers nothing.
func (s *Service) e2eeTestNotification(c *handler.Call) (handler.Fields, error) {
	name := "device_id"
	if !s.realm().AtLeast(realm.LevelPushRedesign) {
		name = "push_account_id"
	}
	var id *int64
	if n, ok := c.P.Int(name); ok {
		id = &n
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().CheckE2EETestNotification(c.User.ID, id)
}

// createBigBlueButtonCall: GET /calls/bigbluebutton/create — a join URL, where the server
// has the provider's credentials (the fake's video_calls_configured).
func (s *Service) createBigBlueButtonCall(c *handler.Call) (handler.Fields, error) {
	name := c.P.RequiredString("meeting_name")
	voiceOnly := c.P.Bool("voice_only", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	if !s.Config().VideoCallsConfigured {
		return nil, apierr.BadRequest("BigBlueButton is not configured.")
	}
	return handler.Fields{"url": s.realm().BigBlueButtonURL(name, voiceOnly)}, nil
}

// devFetchAPIKey: POST /dev_fetch_api_key — without credentials, on a development server only.
func (s *Service) devFetchAPIKey(c *handler.Call) (handler.Fields, error) {
	username := c.P.RequiredString("username")
	if err := c.Done(); err != nil {
		return nil, err
	}
	u, err := s.realm().DevLogin(username)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"api_key": u.APIKey, "email": u.Email, "user_id": u.ID}, nil
}
