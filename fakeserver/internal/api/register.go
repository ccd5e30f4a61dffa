package api

import (
	"fmt"
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// register: POST /register — an event queue and the initial state a client needs.
//
// event_types chooses the events the queue receives (all when absent); fetch_event_types
// chooses the state returned and defaults to event_types; each state key is present when,
// and only when, its event type is chosen, as on the real server. The queue is made before
// the state is read, so a change between the two is at worst seen twice, never lost.
func (s *Service) register(c *handler.Call) (handler.Fields, error) {
	fetchTypes := queueList(c, "fetch_event_types")
	eventTypes := queueList(c, "event_types")
	client := s.clientOptions(c)
	client.Capabilities = clientCapabilities(c)
	includeSubscribers := c.P.Bool("include_subscribers", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	if err := s.checkClientOptions(c, client); err != nil {
		return nil, err
	}
	queueID, lastEventID := s.registerQueue(c.User.ID, eventTypes, client)
	wanted := fetchTypes
	if wanted == nil {
		wanted = eventTypes
	}
	st := registerState{
		c: c, f: handler.Fields{}, client: client, wanted: wanted, settings: s.realm().Settings(),
		subs: realm.SubscriptionOptions{
			IncludeSubscribers:       includeSubscribers,
			NotificationSettingsNull: client.Can("notification_settings_null"),
			IncludeArchived:          client.Can("archived_channels"),
		},
	}
	st.f["zulip_version"], st.f["zulip_feature_level"], st.f["zulip_merge_base"] = st.settings.Version, st.settings.FeatureLevel, st.settings.Version
	st.f["queue_id"], st.f["last_event_id"] = queueID, lastEventID
	s.coreRegisterState(&st)
	// The domain's aggregates add the parts they own.
	maps.Copy(st.f, s.realm().RegisterState(realm.RegisterRequest{
		UserID: c.User.ID, Wanted: wanted, IncludeDeactivatedGroups: client.Can("include_deactivated_groups"),
	}))
	return st.f, nil
}

// MaxQueueParamBytes bounds each parameter of a queue's registration that is a list or a
// dict (event_types, fetch_event_types, narrow, client_capabilities), in bytes of its JSON:
// a queue keeps what they say for its life, and a user may hold 1,000 queues. The real server
// bounds only the request's body; a client that names every event type the real server has
// sends under 2 KB.
const MaxQueueParamBytes = 4 << 10

// withinQueueBound checks a registration parameter's size before it is decoded.
func withinQueueBound(c *handler.Call, name string) bool {
	if c.P.Size(name) > MaxQueueParamBytes {
		c.P.Has(name) // read: it is not an unsupported parameter
		c.P.Fail(apierr.BadRequest("%s is too long (limit: %d bytes)", name, MaxQueueParamBytes))
		return false
	}
	return true
}

// queueList reads an optional list of strings of a queue's registration, within its bound.
func queueList(c *handler.Call, name string) []string {
	if !withinQueueBound(c, name) {
		return nil
	}
	return stringList(c, name)
}

// clientCapabilities reads client_capabilities, a dict of booleans (nil when absent).
func clientCapabilities(c *handler.Call) map[string]bool {
	if !withinQueueBound(c, "client_capabilities") {
		return nil
	}
	caps, ok := jsonOfKind[map[string]any](c, "client_capabilities", "a dict")
	if !ok {
		return nil
	}
	out := make(map[string]bool, len(caps))
	for _, name := range slices.Sorted(maps.Keys(caps)) {
		on, isBool := caps[name].(bool)
		if !isBool {
			c.P.Fail(apierr.BadRequest("client_capabilities[%q] is not a boolean", name))
			return nil
		}
		out[name] = on
	}
	return out
}

// clientOptions reads the options that shape a queue's events, taken by POST /register and
// by GET /events when it makes a queue: apply_markdown is false unless asked for, and
// client_gravatar true from feature level 92 on, as on the real server.
func (s *Service) clientOptions(c *handler.Call) events.Client {
	return events.Client{
		ApplyMarkdown:    c.P.Bool("apply_markdown", false),
		ClientGravatar:   clientGravatar(c, s.realm()),
		SlimPresence:     c.P.Bool("slim_presence", false),
		AllPublicStreams: c.P.Bool("all_public_streams", false),
		Narrow:           eventNarrow(c),
	}
}

// checkClientOptions applies the real server's checks of the options after parsing.
func (s *Service) checkClientOptions(c *handler.Call, client events.Client) error {
	if client.AllPublicStreams && c.User.Role == realm.RoleGuest {
		return apierr.BadRequest("User not authorized for this query")
	}
	if err := realm.CheckEventNarrow(client.Narrow); err != nil {
		return err
	}
	return nil
}

// eventNarrow reads the narrow of an event queue: a JSON list of [operator, operand] pairs
// of strings (or, as newer servers also take, {"operator", "operand"} objects).
func eventNarrow(c *handler.Call) [][2]string {
	if !withinQueueBound(c, "narrow") {
		return nil
	}
	list, ok := jsonOfKind[[]any](c, "narrow", "a list")
	if !ok {
		return nil
	}
	out := make([][2]string, 0, len(list))
	for i, item := range list {
		var pair []any
		switch term := item.(type) {
		case []any:
			pair = term
		case map[string]any:
			pair = []any{term["operator"], term["operand"]}
		default:
			c.P.Fail(apierr.BadRequest("narrow[%d] is not a list", i))
			return nil
		}
		if len(pair) != 2 {
			c.P.Fail(apierr.BadRequest("narrow[%d] is not length 2", i))
			return nil
		}
		var term [2]string
		for j, v := range pair {
			str, isStr := v.(string)
			if !isStr {
				c.P.Fail(apierr.BadRequest("narrow[%d][%d] is not a string", i, j))
				return nil
			}
			term[j] = str
		}
		out = append(out, term)
	}
	return out
}

// registerState is one POST /register answer being assembled.
type registerState struct {
	c        *handler.Call
	f        handler.Fields
	client   events.Client
	wanted   []string // nil: every event type
	settings realm.Settings
	subs     realm.SubscriptionOptions
}

// want tells whether the client asked for an event type's state.
func (st *registerState) want(eventType string) bool {
	return st.wanted == nil || slices.Contains(st.wanted, eventType)
}

// coreRegisterState adds the state of the realm, its users, channels, messages, presence
// and the user's settings.
func (s *Service) coreRegisterState(st *registerState) {
	r, uid, f := s.realm(), st.c.User.ID, st.f
	if st.want("realm") {
		s.realmRegisterState(st)
	}
	if st.want("realm_user") {
		users := r.RegisterUsers(uid, st.client.ClientGravatar)
		me := users.Me
		f["realm_users"], f["realm_non_active_users"], f["cross_realm_bots"] = users.Active, users.NonActive, r.CrossRealmBots()
		f["user_id"], f["email"], f["delivery_email"], f["full_name"] = me.UserID, me.Email, me.DeliveryEmail, me.FullName
		f["is_owner"], f["is_admin"], f["is_guest"] = me.IsOwner, me.IsAdmin, me.IsGuest
		if !r.AtLeast(realm.LevelBillingGroup) { // can_manage_billing_group replaced it
			f["is_billing_admin"] = false
		}
		f["is_moderator"] = me.Role <= realm.RoleModerator
		f["avatar_source"], f["avatar_url"], f["avatar_url_medium"] = "G", me.AvatarURL, me.AvatarURL
		f["can_create_streams"] = !me.IsGuest
		f["can_create_public_streams"], f["can_create_private_streams"] = !me.IsGuest, !me.IsGuest
		f["can_create_web_public_streams"], f["can_subscribe_other_users"] = false, !me.IsGuest
		f["can_invite_others_to_realm"] = me.IsAdmin
	}
	if st.want("realm_bot") {
		f["realm_bots"] = r.RegisterBots(uid)
	}
	if st.want("subscription") {
		f["subscriptions"] = r.Subscriptions(uid, st.subs)
		f["unsubscribed"] = r.Unsubscribed(uid, st.subs)
		f["never_subscribed"] = r.NeverSubscribed(uid, st.subs)
	}
	if st.want("stream") {
		f["streams"] = r.VisibleChannels(uid)
	}
	if st.want("message") {
		f["max_message_id"] = r.MaxMessageID(uid)
	}
	if st.want("message") && st.want("update_message_flags") {
		f["unread_msgs"] = r.UnreadMessages(uid)
	}
	if st.want("presence") {
		res := r.Presences(realm.PresenceQuery{HistoryLimitDays: defaultHistoryLimitDays, Modern: st.client.SlimPresence})
		f["presences"], f["server_timestamp"] = res.Presences, float64(r.Now())
		if r.AtLeast(realm.LevelPresenceUpdateID) {
			f["presence_last_update_id"] = res.LastUpdateID
		}
	}
	if st.want("realm_emoji") {
		f["realm_emoji"] = s.realm().RealmEmoji()
	}
	if st.want("realm_linkifiers") {
		f["realm_linkifiers"] = []any{}
		if realm.LinkifiersFor(st.settings.FeatureLevel, st.client) {
			f["realm_linkifiers"] = r.Linkifiers()
		}
	}
	if st.want("realm_filters") {
		f["realm_filters"] = []any{} // the legacy form, empty on the real server too
	}
	if st.want("realm_playgrounds") {
		f["realm_playgrounds"] = r.Playgrounds()
	}
	if st.want("has_vcall_token") {
		f["has_vcall_token"] = st.c.User.HasVCallToken && !mutation.On("vcall-token-register-false")
	}
	s.settingsRegisterState(st)
}

// settingsRegisterState adds user_settings, and the legacy top-level copies; with each, as on
// the real server, the choices a client offers: the emoji sets with the display settings, the
// notification sounds with the notification settings.
func (s *Service) settingsRegisterState(st *registerState) {
	settings := s.realm().UserSettings(st.c.User.ID)
	if st.want("user_settings") {
		withChoices := maps.Clone(settings)
		withChoices["emojiset_choices"], withChoices["available_notification_sounds"] = realm.EmojisetChoices, realm.NotificationSounds
		st.f["user_settings"] = withChoices
	}
	if st.client.Can("user_settings_object") {
		return
	}
	if st.want("update_display_settings") {
		st.f["emojiset_choices"] = realm.EmojisetChoices
	}
	if st.want("update_global_notifications") {
		st.f["available_notification_sounds"] = realm.NotificationSounds
	}
	for _, eventType := range []string{"update_display_settings", "update_global_notifications"} {
		if !st.want(eventType) {
			continue
		}
		for _, name := range realm.LegacySettings(eventType) {
			if v, ok := settings[name]; ok { // a setting of the fake's level
				st.f[name] = v
			}
		}
	}
}

// thumbnailFormats are the real server's default thumbnail formats (THUMBNAIL_OUTPUT_FORMATS):
// one animated and one still WebP of at most 840×560.
var thumbnailFormats = []map[string]any{
	{"name": "840x560-anim.webp", "max_width": 840, "max_height": 560, "format": "webp", "animated": true},
	{"name": "840x560.webp", "max_width": 840, "max_height": 560, "format": "webp", "animated": false},
}

// realmRegisterState adds the realm's settings and the server's constants and intervals.
func (s *Service) realmRegisterState(st *registerState) {
	f, set := st.f, st.settings
	url := baseURL(st.c)
	f["max_topic_length"], f["max_message_length"] = set.MaxTopicLength, set.MaxMessageLength
	if mutation.On("register-max-message-length-plus-one") {
		f["max_message_length"] = set.MaxMessageLength + 1
	}
	if mutation.On("register-max-topic-length-plus-one") {
		f["max_topic_length"] = set.MaxTopicLength + 1
	}
	f["max_stream_name_length"], f["max_stream_description_length"] = 60, 1024
	if set.FeatureLevel >= realm.LevelEmptyTopic {
		f["realm_empty_topic_display_name"] = set.EmptyTopicDisplayName
	}
	f["realm_date_created"] = set.DateCreated
	f["realm_uri"] = url
	if set.FeatureLevel >= realm.LevelRealmURL {
		f["realm_url"] = url
	}
	if set.FeatureLevel < realm.LevelUserEmailVisibility { // each user's own setting from there
		f["realm_email_address_visibility"] = s.realm().RealmEmailVisibility()
	}
	if set.FeatureLevel >= realm.LevelReminderNote {
		f["max_reminder_note_length"] = realm.MaxReminderNoteLength
	}
	f["realm_icon_url"], f["realm_icon_source"] = url+"/static/images/logo/zulip-icon-128x128.png", "G"
	f["realm_presence_disabled"] = false
	f["realm_push_notifications_enabled"] = s.Config().PushConfigured
	if set.FeatureLevel >= realm.LevelThumbnailFormats {
		f["server_thumbnail_formats"] = thumbnailFormats
	}
	if set.FeatureLevel >= realm.LevelModerationRequestChannel {
		f["realm_moderation_request_channel_id"] = s.realm().ModerationRequestChannelID()
	}
	if set.FeatureLevel >= realm.LevelReportTypes {
		f["server_report_message_types"] = realm.ReportTypes
	}
	if !s.realm().AtLeast(realm.LevelNoZephyrField) {
		f["realm_is_zephyr_mirror_realm"] = false
	}
	f["realm_authentication_methods"] = map[string]any{"Email": map[string]any{"enabled": true, "available": true}}
	f["server_generation"] = s.hub.Generation()
	f["event_queue_longpoll_timeout_seconds"] = s.Config().EventPollTimeoutSeconds
	f["server_presence_ping_interval_seconds"] = realm.PingIntervalSeconds
	f["server_presence_offline_threshold_seconds"] = realm.OfflineThresholdSeconds
	f["server_typing_started_expiry_period_milliseconds"] = 45000
	f["server_typing_stopped_wait_period_milliseconds"] = 5000
	f["server_typing_started_wait_period_milliseconds"] = 10000
	f["server_avatar_changes_disabled"], f["server_name_changes_disabled"] = false, false
	f["server_needs_upgrade"], f["server_web_public_streams_enabled"] = false, false
	f["server_inline_image_preview"], f["server_inline_url_embed_preview"] = true, true
	f["server_emoji_data_url"] = fmt.Sprintf("%s/static/generated/emoji/emoji_api.json", url)
	f["server_jitsi_server_url"], f["server_can_summarize_topics"] = nil, false
	maps.Copy(f, s.realm().RealmSettingsState())
	maps.Copy(f, s.realm().EditingState())
}
