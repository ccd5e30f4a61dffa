package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// errNoSuchBot is the answer for a bot ID too large to name one.
var errNoSuchBot = apierr.BadRequest("No such bot")

// regenerateAPIKey: POST /users/me/api_key/regenerate — a new key for the requester; the old
// one stops working at once.
func (s *Server) regenerateAPIKey(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"api_key": s.realm().RegenerateAPIKey(c.user.ID)}, nil
}

// getBotAPIKey: GET /bots/{bot_id}/api_key — a bot's key, for its owner or an administrator.
func (s *Server) getBotAPIKey(c *call) (fields, error) {
	id, err := c.pathID("bot_id", errNoSuchBot)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	key, aerr := s.realm().BotAPIKey(c.user.ID, id)
	if aerr != nil {
		return nil, aerr
	}
	return fields{"api_key": key}, nil
}

// regenerateBotAPIKey: POST /bots/{bot_id}/api_key/regenerate.
func (s *Server) regenerateBotAPIKey(c *call) (fields, error) {
	id, err := c.pathID("bot_id", errNoSuchBot)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	key, aerr := s.realm().RegenerateBotAPIKey(c.user.ID, id)
	if aerr != nil {
		return nil, aerr
	}
	return fields{"api_key": key}, nil
}

// updateBot: PATCH /bots/{bot_id} — the bot's name, role and owner (the fake keeps no
// outgoing-webhook services or default channels: those parameters are reported as ignored).
func (s *Server) updateBot(c *call) (fields, error) {
	id, err := c.pathID("bot_id", errNoSuchBot)
	if err != nil {
		return nil, err
	}
	var up realm.BotUpdate
	if name, ok := c.p.String("full_name"); ok {
		up.FullName = &name
	}
	if role, ok := c.p.Int("role"); ok {
		r := int(max(min(role, 1<<31-1), -1)) // out-of-range values stay invalid roles
		up.Role = &r
	}
	if owner, ok := c.p.Int("bot_owner_id"); ok {
		o := int(max(min(owner, 1<<31-1), 0)) // out-of-range IDs name no user
		up.OwnerID = &o
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	v, aerr := s.realm().UpdateBot(c.user.ID, id, up)
	if aerr != nil {
		return nil, aerr
	}
	f := fields{
		"full_name": v.FullName, "avatar_url": v.AvatarURL, "service_interface": v.ServiceInterface,
		"service_payload_url": v.ServicePayloadURL, "config_data": v.ConfigData, "default_sending_stream": v.DefaultSendingStream,
		"default_events_register_stream": v.DefaultEventsRegisterStream, "default_all_public_streams": v.DefaultAllPublicStreams,
	}
	if v.BotOwner != "" {
		f["bot_owner"] = v.BotOwner
	}
	return f, nil
}
