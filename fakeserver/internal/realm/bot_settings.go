package realm

import (
	"maps"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// A bot's own settings: the channels it sends to and registers for by default, whether it
// registers for every public channel, the outgoing webhook service of outgoing-webhook and
// embedded bots, and its configuration (key-value pairs; embedded bots show theirs).

// Bot types other than the generic one, as the real server numbers them; outgoing-webhook
// and embedded bots have a service.
const (
	incomingWebhookBot = 2
	outgoingWebhookBot = 3
	embeddedBot        = 4
)

// maxBotConfigSize is the real server's BOT_CONFIG_SIZE_LIMIT: the characters of a bot's
// configuration, keys and values together. It also keeps a client from growing the fake
// without end by adding keys one request at a time.
const maxBotConfigSize = 10000

// embeddedBots are the embedded bots the real server ships (EMBEDDED_BOTS), the service names
// an embedded bot may take. The fake runs as a server with embedded bots enabled.
var embeddedBots = map[string]bool{
	"converter": true, "encrypt": true, "helloworld": true, "virtual_fs": true, "giphy": true, "followup": true,
}

// NewBot is a POST /bots request: the bot's names and type; the URL (PayloadURL) and format
// (Interface) of an outgoing webhook; the service an outgoing-webhook or embedded bot runs
// (ServiceName, the short name when ""); the configuration of an incoming-webhook or
// embedded bot.
type NewBot struct {
	FullName, ShortName     string
	BotType                 int
	PayloadURL, ServiceName string
	Interface               int
	ConfigData              map[string]string
}

// setUpBotService gives a new, checked bot the service and configuration its request named,
// as the real server's add_bot_backend keeps them; the caller holds the lock.
func (s *AccountState) setUpBotService(bot *User, nb NewBot) {
	st := s.settingsOf(bot)
	if st.service != nil {
		st.service.name, st.service.baseURL, st.service.iface = nb.ServiceName, nb.PayloadURL, nb.Interface
	}
	if bot.BotType == incomingWebhookBot || bot.BotType == embeddedBot {
		maps.Copy(st.config, nb.ConfigData)
	}
}

// Service interfaces an outgoing webhook speaks: Zulip's own format and Slack's.
var serviceInterfaces = map[int]bool{1: true, 2: true}

// botSettings are a bot's settings beyond those of every user.
type botSettings struct {
	sendingChannel, eventsChannel int // channel IDs, 0 for none
	allPublicChannels             bool
	service                       *botService // outgoing-webhook and embedded bots
	config                        map[string]string
}

// botService is a bot's outgoing webhook: where messages to the bot are posted, in which
// format, and the token the receiver checks them by.
type botService struct {
	name, baseURL, token string
	iface                int
}

// newBotSettings are a new bot's settings; a bot of a type with a service gets one, with no
// URL yet, as the real server makes one for a bot created without payload_url.
func newBotSettings(bot *User) *botSettings {
	st := &botSettings{config: map[string]string{}}
	if bot.BotType == outgoingWebhookBot || bot.BotType == embeddedBot {
		short, _, _ := strings.Cut(bot.Email, "@")
		st.service = &botService{name: strings.TrimSuffix(short, "-bot"), iface: 1, token: newAPIKey()}
	}
	return st
}

// settingsOf is a bot's settings (addUser gives every bot its own), the defaults for a user
// that is none.
func (s *AccountState) settingsOf(bot *User) *botSettings {
	if bot.bot == nil {
		return &botSettings{}
	}
	return bot.bot
}

// channelName is a default channel's name as the API shows it: null for none.
func (s *AccountState) channelName(id int) any {
	if ch := s.chans.channels[id]; ch != nil {
		return ch.Name
	}
	return nil
}

// services is a bot's services as realm_bots shows them: an outgoing webhook with its URL,
// format and token; an embedded bot's configuration, once it has one.
func (s *AccountState) services(bot *User) []any {
	st := s.settingsOf(bot)
	switch {
	case bot.BotType == outgoingWebhookBot:
		return []any{map[string]any{"base_url": st.service.baseURL, "interface": st.service.iface, "token": st.service.token}}
	case bot.BotType == embeddedBot && len(st.config) > 0:
		return []any{map[string]any{"config_data": maps.Clone(st.config), "service_name": st.service.name}}
	}
	return []any{}
}

// BotSettingsUpdate is the part of PATCH /bots/{bot_id} that changes a bot's own settings;
// nil fields stay.
type BotSettingsUpdate struct {
	// DefaultSendingStream and DefaultEventsRegisterStream name a channel; "" clears.
	DefaultSendingStream, DefaultEventsRegisterStream *string
	DefaultAllPublicStreams                           *bool
	// ServicePayloadURL changes the outgoing webhook's URL, and with it its format to
	// ServiceInterface.
	ServicePayloadURL *string
	ServiceInterface  int
	ConfigData        map[string]string
}

// checkedBotSettings are the channels a valid update names.
type checkedBotSettings struct{ sending, events *int }

// checkBotSettings holds an update to the real server's rules, in its order, before any of
// it is applied: channels the requester can access by name, a known service interface for a
// bot that has a service.
func (s *AccountState) checkBotSettings(req, bot *User, up BotSettingsUpdate) (checkedBotSettings, error) {
	var c checkedBotSettings
	channel := func(name *string) (*int, error) {
		if name == nil {
			return nil, nil
		}
		id := 0
		if *name != "" {
			ch := s.chans.channelsByName[strings.ToLower(strings.TrimSpace(*name))]
			if ch == nil || ch.Archived || !ch.canAccess(req) {
				return nil, apierr.BadRequest("Invalid channel name '%s'", *name)
			}
			id = ch.ID
		}
		return &id, nil
	}
	var err error
	if c.sending, err = channel(up.DefaultSendingStream); err != nil {
		return c, err
	}
	if c.events, err = channel(up.DefaultEventsRegisterStream); err != nil {
		return c, err
	}
	if up.ServicePayloadURL != nil {
		if !serviceInterfaces[up.ServiceInterface] {
			return c, apierr.BadRequest("Invalid interface type")
		}
		// The real server fails with an internal error here; a clear refusal instead.
		if s.settingsOf(bot).service == nil {
			return c, apierr.BadRequest("This bot has no outgoing webhook service")
		}
	}
	if up.ConfigData != nil {
		if err := checkConfigSize(s.settingsOf(bot).config, up.ConfigData); err != nil {
			return c, err
		}
	}
	return c, nil
}

// configSize is the characters a configuration would hold with update applied. (The real
// server checks key by key and keeps the keys before the one over its limit; here a refused
// update keeps none.)
// checkConfigSize refuses an update that would make a bot's configuration larger than the
// real server allows.
func checkConfigSize(config, update map[string]string) error {
	if size := configSize(config, update); size > maxBotConfigSize {
		return apierr.BadRequest("Cannot store configuration. Request would require %d characters. The current configuration size limit is %d characters.", size, maxBotConfigSize)
	}
	return nil
}

func configSize(config, update map[string]string) int {
	n := 0
	for k, v := range config {
		if _, replaced := update[k]; !replaced {
			n += utf8.RuneCountInString(k) + utf8.RuneCountInString(v)
		}
	}
	for k, v := range update {
		n += utf8.RuneCountInString(k) + utf8.RuneCountInString(v)
	}
	return n
}

// applyBotSettings makes a checked update and tells the bot's managers of each setting the
// request named, as the real server does, whether or not its value changed.
func (s *AccountState) applyBotSettings(bot *User, up BotSettingsUpdate, c checkedBotSettings) {
	st := s.settingsOf(bot)
	if c.sending != nil {
		st.sendingChannel = *c.sending
		s.publishBotUpdate(bot, map[string]any{"default_sending_stream": s.channelName(st.sendingChannel)})
	}
	if c.events != nil {
		st.eventsChannel = *c.events
		s.publishBotUpdate(bot, map[string]any{"default_events_register_stream": s.channelName(st.eventsChannel)})
	}
	if up.DefaultAllPublicStreams != nil {
		st.allPublicChannels = *up.DefaultAllPublicStreams
		s.publishBotUpdate(bot, map[string]any{"default_all_public_streams": st.allPublicChannels})
	}
	if up.ServicePayloadURL != nil {
		st.service.baseURL, st.service.iface = *up.ServicePayloadURL, up.ServiceInterface
		s.publishBotUpdate(bot, map[string]any{"services": []any{
			map[string]any{"base_url": st.service.baseURL, "interface": st.service.iface, "token": st.service.token},
		}})
	}
	if up.ConfigData != nil {
		maps.Copy(st.config, up.ConfigData)
		s.publishBotUpdate(bot, map[string]any{"services": []any{map[string]any{"config_data": maps.Clone(st.config)}}})
	}
}

// ValidServiceURL is the real server's check of an outgoing webhook's URL: absolute, with a
// host, over HTTP(S) or FTP(S).
func ValidServiceURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ftp", "ftps":
		return true
	}
	return false
}
