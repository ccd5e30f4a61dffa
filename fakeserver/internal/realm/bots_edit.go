package realm

import (
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// API keys and bot settings: regenerating a key (one's own or a bot's), reading a bot's key,
// and editing a bot (PATCH /bots/{bot_id}), with the real server's access rules: a bot is
// managed by its owner and by organization administrators.

// setAPIKey gives u a new key; the old one stops authenticating at once.
func (s *AccountState) setAPIKey(u *User) string {
	delete(s.usersByKey, u.APIKey)
	u.APIKey = newAPIKey()
	s.usersByKey[u.APIKey] = u
	return u.APIKey
}

// RegenerateAPIKey replaces a human requester's own API key and returns the new one (no
// event: the user's other clients find out when their key is refused).
func (s *AccountState) RegenerateAPIKey(userID int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.setAPIKey(s.users[userID])
}

// managedBot is the real server's access check on a bot by ID: the bot must exist and be a
// bot, and the requester must own it or administer the organization.
func (s *AccountState) managedBot(requesterID, botID int) (*User, error) {
	req, bot := s.users[requesterID], s.users[botID]
	if bot == nil || !bot.IsBot {
		return nil, apierr.BadRequest("No such bot")
	}
	if !req.IsAdmin() && bot.BotOwnerID != req.ID {
		return nil, apierr.BadRequest("Insufficient permission")
	}
	return bot, nil
}

// BotAPIKey returns a managed bot's API key (GET /bots/{bot_id}/api_key).
func (s *AccountState) BotAPIKey(requesterID, botID int) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	bot, err := s.managedBot(requesterID, botID)
	if err != nil {
		return "", err
	}
	return bot.APIKey, nil
}

// RegenerateBotAPIKey replaces a managed bot's API key and returns the new one.
func (s *AccountState) RegenerateBotAPIKey(requesterID, botID int) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	bot, err := s.managedBot(requesterID, botID)
	if err != nil {
		return "", err
	}
	key := s.setAPIKey(bot)
	s.publishBotUpdate(bot, map[string]any{"api_key": key})
	return key, nil
}

// BotUpdate is a change to a bot (PATCH /bots/{bot_id}); nil fields stay.
type BotUpdate struct {
	FullName *string
	Role     *int
	OwnerID  *int
	BotSettingsUpdate
}

// BotView is the reply of PATCH /bots/{bot_id}: the bot's settings after the change.
type BotView struct {
	FullName  string
	AvatarURL string
	// BotOwner is the owner's API email, "" for a bot without an owner.
	BotOwner string
	// The default channels by name, null for none.
	DefaultSendingStream        any
	DefaultEventsRegisterStream any
	DefaultAllPublicStreams     bool
}

// UpdateBot applies a bot's owner's or an administrator's change, all or nothing: every
// field is checked before any is applied. A new owner must have room, within bounds, for what
// the bot keeps (roomForBot).
func (s *AccountState) UpdateBot(requesterID, botID int, up BotUpdate, bounds HolderBounds) (BotView, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	bot, err := s.managedBot(requesterID, botID)
	if err != nil {
		return BotView{}, err
	}
	var name string
	if up.FullName != nil {
		if err := checkFullName(*up.FullName); err != nil {
			return BotView{}, err
		}
		name = strings.TrimSpace(*up.FullName)
		if name != bot.FullName && s.botNameTaken(name) {
			return BotView{}, apierr.BadRequest("Name is already in use!")
		}
	}
	if up.Role != nil && *up.Role != bot.Role {
		req := s.users[requesterID]
		switch {
		case !roleValues[*up.Role]:
			return BotView{}, apierr.BadRequest("Invalid role")
		case (*up.Role == RoleOwner || bot.Role == RoleOwner) && req.Role != RoleOwner:
			return BotView{}, apierr.MustBeOwner
		case !req.IsAdmin():
			return BotView{}, apierr.MustBeAdmin
		}
	}
	var owner *User
	if up.OwnerID != nil {
		switch owner = s.users[*up.OwnerID]; {
		case owner == nil:
			return BotView{}, apierr.BadRequest("Failed to change owner, no such user")
		case !owner.IsActive:
			return BotView{}, apierr.BadRequest("Failed to change owner, user is deactivated")
		case owner.IsBot:
			return BotView{}, apierr.BadRequest("Failed to change owner, bots can't own other bots")
		}
		if owner.ID != bot.BotOwnerID {
			if err := s.roomForBot(bot, owner.ID, bounds); err != nil {
				return BotView{}, err
			}
		}
	}
	checked, err := s.checkBotSettings(s.users[requesterID], bot, up.BotSettingsUpdate)
	if err != nil {
		return BotView{}, err
	}
	if up.FullName != nil && name != bot.FullName {
		bot.FullName = name
		s.publishBotUpdate(bot, map[string]any{"full_name": name})
		s.publishUserUpdate(bot, map[string]any{"full_name": name})
	}
	if up.Role != nil && *up.Role != bot.Role {
		bot.Role = *up.Role
		s.publishUserUpdate(bot, map[string]any{"role": bot.Role})
	}
	if owner != nil && owner.ID != bot.BotOwnerID {
		s.changeBotOwner(bot, owner)
	}
	s.applyBotSettings(bot, up.BotSettingsUpdate, checked)
	return s.botView(bot), nil
}

// botNameTaken tells whether a bot of the realm already has this name (the real server keeps
// bot names unique, ignoring case).
func (s *AccountState) botNameTaken(name string) bool {
	for _, u := range s.users {
		if u.IsBot && strings.EqualFold(u.FullName, name) {
			return true
		}
	}
	return false
}

// changeBotOwner hands a bot to a new owner. The old owner, unless an administrator, no
// longer sees the bot (realm_bot delete); the new one, unless an administrator, now does
// (realm_bot add); the bot's managers get the new owner_id and everyone the new bot_owner_id.
func (s *AccountState) changeBotOwner(bot, owner *User) {
	previous := s.users[bot.BotOwnerID]
	bot.BotOwnerID = owner.ID
	if previous != nil && previous.IsActive && !previous.IsAdmin() {
		s.publish(events.Event{"type": "realm_bot", "op": "delete", "bot": map[string]any{"user_id": bot.ID}}, previous.ID)
	}
	if !owner.IsAdmin() {
		s.publish(events.Event{"type": "realm_bot", "op": "add", "bot": s.botObject(bot)}, owner.ID)
	}
	s.publish(events.Event{"type": "realm_bot", "op": "update", "bot": map[string]any{"user_id": bot.ID, "owner_id": owner.ID}},
		slices.DeleteFunc(s.botManagers(bot), func(id int) bool { return id == owner.ID && !owner.IsAdmin() })...)
	s.publishUserUpdate(bot, map[string]any{"bot_owner_id": owner.ID})
}

// botManagers lists the active users who manage a bot: its owner and the administrators.
func (s *AccountState) botManagers(bot *User) []int {
	var ids []int
	for _, id := range s.activeUserIDs() {
		if u := s.users[id]; u.IsAdmin() || u.ID == bot.BotOwnerID {
			ids = append(ids, id)
		}
	}
	return ids
}

// publishBotUpdate tells a bot's managers of a change to its fields.
func (s *AccountState) publishBotUpdate(bot *User, fields map[string]any) {
	b := map[string]any{"user_id": bot.ID}
	for k, v := range fields {
		b[k] = v
	}
	s.publish(events.Event{"type": "realm_bot", "op": "update", "bot": b}, s.botManagers(bot)...)
}

func (s *AccountState) botView(bot *User) BotView {
	st := s.settingsOf(bot)
	v := BotView{
		FullName: bot.FullName, AvatarURL: avatarURL(bot), DefaultSendingStream: s.channelName(st.sendingChannel),
		DefaultEventsRegisterStream: s.channelName(st.eventsChannel), DefaultAllPublicStreams: st.allPublicChannels,
	}
	if o := s.users[bot.BotOwnerID]; o != nil {
		v.BotOwner = s.apiEmail(o)
	}
	return v
}

// botObject is a bot as realm_bots and realm_bot add events show it to its managers.
func (s *AccountState) botObject(b *User) map[string]any {
	var owner any
	if o := s.users[b.BotOwnerID]; o != nil {
		owner = o.ID
	}
	st := s.settingsOf(b)
	return map[string]any{
		"user_id": b.ID, "email": s.apiEmail(b), "full_name": b.FullName, "bot_type": b.BotType,
		"is_active": b.IsActive, "api_key": b.APIKey, "avatar_url": avatarURL(b), "owner_id": owner,
		"default_sending_stream": s.channelName(st.sendingChannel), "default_events_register_stream": s.channelName(st.eventsChannel),
		"default_all_public_streams": st.allPublicChannels, "services": s.services(b),
	}
}
