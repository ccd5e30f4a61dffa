package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// errNoSuchBot is the answer for a bot ID too large to name one.
var errNoSuchBot = apierr.BadRequest("No such bot")

// regenerateAPIKey: POST /users/me/api_key/regenerate — a new key for the requester; the old
// one stops working at once.
func (s *Service) regenerateAPIKey(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"api_key": s.realm().RegenerateAPIKey(c.User.ID)}, nil
}

// botAPIKey: GET /bots/{bot_id}/api_key reads a bot's key (key is State.BotAPIKey), and
// POST /bots/{bot_id}/api_key/regenerate replaces it (State.RegenerateBotAPIKey); for the
// bot's owner or an administrator.
func botAPIKey(key func(st *realm.State, requesterID, botID int) (string, error)) op {
	return func(s *Service, c *handler.Call) (handler.Fields, error) {
		id, err := c.PathID("bot_id", errNoSuchBot)
		if err != nil {
			return nil, err
		}
		if err := c.Done(); err != nil {
			return nil, err
		}
		k, err := key(s.realm(), c.User.ID, id)
		if err != nil {
			return nil, err
		}
		return handler.Fields{"api_key": k}, nil
	}
}

// updateBot: PATCH /bots/{bot_id} — the bot's name, role, owner, default channels and
// outgoing webhook (bot_settings.go).
func (s *Service) updateBot(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("bot_id", errNoSuchBot)
	if err != nil {
		return nil, err
	}
	var up realm.BotUpdate
	if name, ok := c.P.String("full_name"); ok {
		up.FullName = &name
	}
	if role, ok := c.P.Int("role"); ok {
		r := int(max(min(role, 1<<31-1), -1)) // out-of-range values stay invalid roles
		up.Role = &r
	}
	if owner, ok := c.P.Int("bot_owner_id"); ok {
		o := int(max(min(owner, 1<<31-1), 0)) // out-of-range IDs name no user
		up.OwnerID = &o
	}
	up.BotSettingsUpdate = botSettingsParams(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	v, err := s.realm().UpdateBot(c.User.ID, id, up, s.Config().HolderBounds())
	if err != nil {
		return nil, err
	}
	f := botSettingsEcho(up.BotSettingsUpdate)
	f["full_name"], f["avatar_url"] = v.FullName, v.AvatarURL
	f["default_sending_stream"], f["default_events_register_stream"] = v.DefaultSendingStream, v.DefaultEventsRegisterStream
	f["default_all_public_streams"] = v.DefaultAllPublicStreams
	if v.BotOwner != "" {
		f["bot_owner"] = v.BotOwner
	}
	return f, nil
}
