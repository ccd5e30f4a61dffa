package api

import (
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getUsers: GET /users.
func (s *Service) getUsers(c *handler.Call) (handler.Fields, error) {
	f := s.userFetch(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"members": s.realm().UsersWith(c.User.ID, f)}, nil
}

// userFetch reads the options of the user fetches (GET /users, GET /users/{id} and by email):
// client_gravatar, true by default from feature level 92 as on the real server, and
// include_custom_profile_fields.
func (s *Service) userFetch(c *handler.Call) realm.UserFetch {
	return realm.UserFetch{
		ClientGravatar: clientGravatar(c, s.realm()),
		Profile:        c.P.Bool("include_custom_profile_fields", false),
	}
}

// clientGravatar reads client_gravatar where the real server takes it: true by default from
// feature level 92, false before.
func clientGravatar(c *handler.Call, r *realm.State) bool {
	return c.P.Bool("client_gravatar", r.AtLeast(realm.LevelClientGravatarDefault))
}

// getUser: GET /users/{user_id}.
func (s *Service) getUser(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	return s.userResponse(c, func(f realm.UserFetch) (realm.UserView, error) {
		return s.realm().UserViewWith(c.User.ID, id, f)
	})
}

// getUserByEmail: GET /users/{email} — the user a real or dummy address names.
func (s *Service) getUserByEmail(c *handler.Call) (handler.Fields, error) {
	email, err := pathEmail(c)
	if err != nil {
		return nil, err
	}
	return s.userResponse(c, func(f realm.UserFetch) (realm.UserView, error) {
		return s.realm().UserViewByEmail(c.User.ID, email, f)
	})
}

// userResponse reads the parameters of a single-user fetch and answers with the user that
// view finds, so the by-ID and by-email routes cannot drift apart.
func (s *Service) userResponse(c *handler.Call, view func(realm.UserFetch) (realm.UserView, error)) (handler.Fields, error) {
	f := s.userFetch(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	v, err := view(f)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"user": v}, nil
}

// pathEmail reads the {email} path segment, percent-decoded.
func pathEmail(c *handler.Call) (string, error) {
	email := pathParam(c.R, "email")
	if !utf8.ValidString(email) {
		return "", apierr.NoSuchUser
	}
	return email, nil
}

// getOwnUser: GET /users/me — the requester's own user object, its fields at top level.
func (s *Service) getOwnUser(c *handler.Call) (ownUserReply, error) {
	// The real server gives the own user's avatar URL always (no client_gravatar here).
	v, err := s.realm().UserViewWith(c.User.ID, c.User.ID, realm.UserFetch{Profile: true})
	if err != nil {
		return ownUserReply{}, err
	}
	return ownUserReply{Person: v.Person, ProfileData: v.ProfileData, MaxMessageID: s.realm().MaxMessageID(c.User.ID)}, nil
}

// ownUserReply is the reply of GET /users/me: the user object without the bot fields, as on
// the real server, with the user's custom profile field values ({} when none) and max_message_id.
type ownUserReply struct {
	realm.Person
	ProfileData any `json:"profile_data"`
	// MaxMessageID is deprecated on the real server but still sent, and read by older clients.
	MaxMessageID int `json:"max_message_id"`
}

// updateUser: PATCH /users/{user_id} — full name, role, custom profile fields, email.
func (s *Service) updateUser(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	up := userUpdate(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateUser(c.User.ID, id, up)
}

// userUpdate reads the parameters both user updates share, in the real server's order.
func userUpdate(c *handler.Call) realm.UserUpdate {
	var up realm.UserUpdate
	if name, ok := c.P.String("full_name"); ok {
		up.FullName = &name
	}
	if role, ok := c.P.Int("role"); ok {
		r := int(max(min(role, 1<<31-1), -1)) // out-of-range values stay invalid roles
		up.Role = &r
	}
	up.ProfileData = profileData(c)
	if email, ok := c.P.String("new_email"); ok {
		up.NewEmail = &email
	}
	return up
}

// deactivateUser: DELETE /users/{user_id}; administrators only.
func (s *Service) deactivateUser(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if comment, ok := c.P.String("deactivation_notification_comment"); ok && utf8.RuneCountInString(comment) > 2000 {
		c.P.Fail(apierr.BadRequest("deactivation_notification_comment is too long (limit: 2000 characters)"))
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().DeactivateUser(c.User.ID, id)
}

// createBot: POST /bots — a bot owned by the requester, with its API key.
func (s *Service) createBot(c *handler.Call) (handler.Fields, error) {
	if c.User.IsGuest() {
		return nil, apierr.BadRequest("Not allowed for guest users")
	}
	fullName := c.P.RequiredString("full_name")
	shortName := c.P.RequiredString("short_name")
	nb := realm.NewBot{FullName: fullName, ShortName: shortName, BotType: 1, Interface: 1}
	if t, ok := c.P.Int("bot_type"); ok {
		nb.BotType = int(max(min(t, 1<<31-1), -1)) // out of range: no type
	}
	if raw, ok := jsonOfKind[string](c, "payload_url", "a string"); ok {
		if !realm.ValidServiceURL(raw) {
			c.P.Fail(apierr.BadRequest("payload_url is not a URL"))
		}
		nb.PayloadURL = raw
	}
	nb.ServiceName, _ = c.P.String("service_name")
	nb.ConfigData = configDataParam(c)
	if n, ok := c.P.Int("interface_type"); ok {
		nb.Interface = int(max(min(n, 1<<31-1), -1)) // out of range: no interface
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	bot, err := s.realm().CreateBot(c.User.ID, nb, s.Config().MaxBotsPerUser)
	if err != nil {
		return nil, err
	}
	v, _ := s.realm().UserView(c.User.ID, bot.ID)
	return handler.Fields{
		"user_id": bot.ID, "api_key": bot.APIKey, "avatar_url": v.AvatarURL, "default_sending_stream": nil,
		"default_events_register_stream": nil, "default_all_public_streams": false,
	}, nil
}

// fetchAPIKey: POST /fetch_api_key — password login, without credentials.
func (s *Service) fetchAPIKey(c *handler.Call) (handler.Fields, error) {
	username := c.P.RequiredString("username")
	password := c.P.RequiredString("password")
	if err := c.Done(); err != nil {
		return nil, err
	}
	done, err := s.loginAttempt(username)
	if err != nil {
		return nil, err
	}
	u, err := s.realm().PasswordLogin(username, password)
	done(err == nil)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"api_key": u.APIKey, "email": u.Email, "user_id": u.ID}, nil
}

// updateSettings: PATCH /settings — the requester's own settings: every user setting at the
// realm's level, the full name, the start of an email change (confirmed through the control
// API, POST /_fake/email_changes/confirm) and a password change.
func (s *Service) updateSettings(c *handler.Call) (handler.Fields, error) {
	up := realm.SettingsUpdate{Values: userSettingParams(c, s.realm().UserSettingRules())}
	for _, p := range []struct {
		name string
		dst  **string
	}{{"full_name", &up.FullName}, {"email", &up.Email}, {"old_password", &up.OldPassword}, {"new_password", &up.NewPassword}} {
		if v, ok := c.P.String(p.name); ok {
			*p.dst = &v
		}
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateUserSettings(c.User.ID, up)
}

// deactivateBot: DELETE /bots/{bot_id}; the bot's owner or an administrator.
func (s *Service) deactivateBot(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("bot_id", apierr.BadRequest("No such bot"))
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().DeactivateBot(c.User.ID, id)
}

// deactivateSelf: DELETE /users/me — the requester deactivates their own account.
func (s *Service) deactivateSelf(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().DeactivateSelf(c.User.ID)
}

// reactivateUser: POST /users/{user_id}/reactivate; administrators only.
func (s *Service) reactivateUser(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().ReactivateUser(c.User.ID, id)
}
