package api

import (
	"net/http"
	"regexp"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// registerClientDevice: POST /register_client_device — a new device ID for the requester.
func (s *Service) registerClientDevice(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"device_id": s.realm().RegisterClientDevice(c.User.ID)}, nil
}

// registerPushDevice: POST /mobile_push/register (operation 7). Parameters are read first, so a
// missing device_id is reported even when no push service is configured, as on the real server.
func (s *Service) registerPushDevice(c *handler.Call) (handler.Fields, error) {
	if mutation.On("push-registration-from-407") && !s.realm().AtLeast(realm.LevelPushRegistration+1) {
		return nil, apierr.NotFound()
	}
	if mutation.On("push-registration-not-found") {
		return nil, apierr.NotFound()
	}
	if !s.realm().AtLeast(realm.LevelPushRedesign) || mutation.On("push-old-form-at-modern-level") {
		return s.registerPushAccount(c)
	}
	r := realm.PushRegistration{DeviceID: c.P.RequiredInt("device_id")}
	if c.P.Has("token_kind") {
		kind := c.P.Enum("token_kind", "", "fcm", "apns")
		r.TokenKind = &kind
	}
	r.PushKey = optionalString(c, "push_key")
	if mutation.On("push-key-refused") && r.PushKey != nil {
		c.P.Fail(apierr.BadRequest("Invalid parameter push_key"))
	}
	if id, ok := c.P.Int("push_key_id"); ok {
		if (id < 0 && !mutation.On("push-key-id-negative-accepted") || id > 1<<32-1 || mutation.On("push-key-id-signed-32-bits") && id > 1<<31-1) && !(mutation.On("push-key-id-over-32-bits-accepted") && id == 1<<32) {
			c.P.Fail(apierr.BadRequest("Invalid push_key_id: Not a valid unsigned 32-bit integer"))
		}
		r.PushKeyID = &id
	}
	r.BouncerPublicKey = optionalString(c, "bouncer_public_key")
	r.EncryptedPushRegistration = optionalString(c, "encrypted_push_registration")
	r.TokenID = optionalString(c, "token_id")
	if err := c.Done(); err != nil {
		return nil, err
	}
	if !s.Config().PushConfigured && !(mutation.On("push-not-configured-rotation-accepted") && (r.TokenKind == nil) != (r.PushKey == nil)) {
		return nil, apierr.New(http.StatusBadRequest, "PUSH_SERVICE_NOT_CONFIGURED", pushNotConfigured)
	}
	return handler.Fields{}, s.realm().RegisterPushDevice(c.User.ID, r)
}

// registerPushAccount: POST /mobile_push/register before its redesign, in the real server's form
// of levels 406 to 467: every field required, in this order, and the registration named by the
// client's push account ID. The key is push_public_key before level 432, push_key from there.
// Without a push service the error had no code of its own yet.
func (s *Service) registerPushAccount(c *handler.Call) (handler.Fields, error) {
	c.P.RequiredEnum("token_kind", "fcm", "apns")
	account := c.P.RequiredInt("push_account_id")
	if s.realm().AtLeast(realm.LevelPushKey) && !(mutation.On("push-key-from-level-433") && !s.realm().AtLeast(realm.LevelPushKey+1)) {
		c.P.RequiredString("push_key")
	} else {
		c.P.RequiredString("push_public_key")
	}
	c.P.RequiredString("bouncer_public_key")
	c.P.RequiredString("encrypted_push_registration")
	if err := c.Done(); err != nil {
		return nil, err
	}
	if !s.Config().PushConfigured {
		return nil, apierr.BadRequest(pushNotConfigured)
	}
	s.realm().RegisterPushAccount(c.User.ID, account)
	return handler.Fields{}, nil
}

const pushNotConfigured = "Server is not configured to use push notification service."

// apnsAppID is the real server's pattern for iOS app IDs.
var apnsAppID = regexp.MustCompile(`^[.a-zA-Z0-9-]+$`)

// addAPNsToken: POST /users/me/apns_device_token — a legacy (unencrypted) iOS registration.
func (s *Service) addAPNsToken(c *handler.Call) (handler.Fields, error) {
	appID := c.P.RequiredString("appid")
	token := c.P.RequiredString("token")
	if err := c.Done(); err != nil {
		return nil, err
	}
	if !apnsAppID.MatchString(appID) {
		return nil, apierr.BadRequest("appid has invalid format")
	}
	return handler.Fields{}, s.realm().AddLegacyToken(c.User.ID, "apns", token, appID)
}

// removeAPNsToken: DELETE /users/me/apns_device_token.
func (s *Service) removeAPNsToken(c *handler.Call) (handler.Fields, error) {
	token := c.P.RequiredString("token")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveLegacyToken(c.User.ID, "apns", token)
}

// addFCMToken: POST /users/me/android_gcm_reg_id — a legacy (unencrypted) Android registration.
func (s *Service) addFCMToken(c *handler.Call) (handler.Fields, error) {
	token := c.P.RequiredString("token")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().AddLegacyToken(c.User.ID, "fcm", token, "")
}

// removeFCMToken: DELETE /users/me/android_gcm_reg_id.
func (s *Service) removeFCMToken(c *handler.Call) (handler.Fields, error) {
	token := c.P.RequiredString("token")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveLegacyToken(c.User.ID, "fcm", token)
}
