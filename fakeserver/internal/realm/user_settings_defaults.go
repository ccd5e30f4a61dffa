package realm

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// SettingKind is the JSON type of a user setting's value.
type SettingKind int

// The kinds of user setting.
const (
	SettingBool SettingKind = iota
	SettingInt
	SettingString
)

// UserDefaultSetting is a user setting (PATCH /settings), which, unless it is the user's own,
// the realm's defaults for new users take too (PATCH /realm/user_settings_defaults): its name,
// kind and, for a setting with a fixed set of values, those values.
type UserDefaultSetting struct {
	Name    string
	Kind    SettingKind
	ints    []int
	strings []string
	since   int
	// own: the user's own setting, which the realm's defaults do not take.
	own bool
}

// NotificationSounds are the real server's notification sounds (the files of its
// static/audio/notification_sounds, sorted), as register's available_notification_sounds
// lists them; notification_sound also takes "none", which the list leaves out.
var NotificationSounds = []string{
	"ascend", "beep_boop", "bink", "bright", "brlip", "chime", "deep tom", "ding", "double tap",
	"down", "dry bongos", "dutdut", "fast ascend", "flute", "friendly", "kick roll", "loud tintong",
	"metallic snare", "pan", "shaker", "simple", "stairs", "subtle", "swish", "tintong", "up",
	"wood block", "zaping", "zing", "zulip",
}

// EmojisetChoices are the real server's emoji sets, as register's emojiset_choices lists them.
var EmojisetChoices = []map[string]string{
	{"key": "google", "text": "Google"}, {"key": "twitter", "text": "Twitter"}, {"key": "text", "text": "Plain text"},
}

// maxEmailBatchingSeconds bounds email_notifications_batching_period_seconds (a week), as the
// real server does.
const maxEmailBatchingSeconds = 7 * 24 * 60 * 60

// userDefaultRules are the user settings PATCH /settings takes, with their checks; the realm's
// defaults for new users take them all but the language, time zone, export consent and the
// login and marketing emails, which stay the user's own.
var userDefaultRules = func() []UserDefaultSetting {
	choices := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	bools := []string{
		"presence_enabled", "twenty_four_hour_time", "enter_sends", "send_stream_typing_notifications",
		"send_private_typing_notifications", "send_read_receipts", "enable_desktop_notifications",
		"enable_sounds", "enable_offline_push_notifications", "enable_offline_email_notifications",
		"enable_stream_desktop_notifications", "enable_stream_audible_notifications",
		"enable_stream_push_notifications", "enable_stream_email_notifications", "wildcard_mentions_notify",
		"display_emoji_reaction_users", "enable_drafts_synchronization",
	}
	out := []UserDefaultSetting{}
	for _, name := range bools {
		out = append(out, UserDefaultSetting{Name: name, Kind: SettingBool})
	}
	out = append(out,
		UserDefaultSetting{Name: "email_address_visibility", Kind: SettingInt, ints: choices(5), since: LevelUserEmailVisibility},
		UserDefaultSetting{Name: "color_scheme", Kind: SettingInt, ints: choices(3)},
		UserDefaultSetting{Name: "emojiset", Kind: SettingString, strings: []string{"google", "twitter", "text"}},
		UserDefaultSetting{Name: "web_home_view", Kind: SettingString, strings: []string{"recent_topics", "inbox", "all_messages"}},
	)
	// The rest are userSettingDefaults' own, with their levels.
	intChoices := map[string][]int{
		"demote_inactive_streams": choices(3), "desktop_icon_count_display": choices(3), "user_list_style": choices(3),
		"realm_name_in_email_notifications_policy": choices(3), "web_mark_read_on_scroll_policy": choices(3),
		"web_stream_unreads_count_display_policy": choices(3), "automatically_follow_topics_policy": choices(4),
		"automatically_unmute_topics_in_muted_streams_policy": choices(4), "web_channel_default_view": choices(4),
	}
	stringChoices := map[string][]string{
		"notification_sound":                     append(slices.Clone(NotificationSounds), "none"),
		"web_animate_image_previews":             {"always", "on_hover", "never"},
		"resolved_topic_notice_auto_read_policy": {"always", "except_followed", "never"},
	}
	for _, d := range userSettingDefaults {
		own := d.name == "enable_login_emails" || d.name == "enable_marketing_emails"
		set := UserDefaultSetting{Name: d.name, since: d.since, ints: intChoices[d.name], strings: stringChoices[d.name], own: own}
		switch d.value.(type) {
		case int:
			set.Kind = SettingInt
		case string:
			set.Kind = SettingString
		}
		out = append(out, set)
	}
	return append(out,
		UserDefaultSetting{Name: "default_language", Kind: SettingString, own: true},
		UserDefaultSetting{Name: "timezone", Kind: SettingString, own: true},
		UserDefaultSetting{Name: "allow_private_data_export", Kind: SettingBool, own: true, since: LevelPrivateDataExport},
	)
}()

// UserDefaultSettings are the settings PATCH /realm/user_settings_defaults takes at the realm's
// level.
func (s *OrganizationState) UserDefaultSettings() []UserDefaultSetting {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.userDefaultSettings()
}

func (s *OrganizationState) userDefaultSettings() []UserDefaultSetting {
	var out []UserDefaultSetting
	for _, d := range s.accts.userSettingRules() {
		if !d.own {
			out = append(out, d)
		}
	}
	return out
}

// builtinUserSettings are the real server's settings for a new user of a realm whose defaults
// nobody changed, at the realm's level; the caller holds the lock.
func (s *OrganizationState) builtinUserSettings() map[string]any {
	settings := map[string]any{
		"presence_enabled": true, "email_address_visibility": VisibleEveryone,
		"default_language": "en", "twenty_four_hour_time": false,
		"enter_sends": false, "send_stream_typing_notifications": true, "send_private_typing_notifications": true,
		"send_read_receipts": true, "enable_desktop_notifications": true, "enable_sounds": true,
		"enable_offline_push_notifications": true, "enable_offline_email_notifications": true,
		"enable_stream_desktop_notifications": false, "enable_stream_audible_notifications": false,
		"enable_stream_push_notifications": false, "enable_stream_email_notifications": false,
		"wildcard_mentions_notify": true, "emojiset": "google", "color_scheme": 1, "web_home_view": "inbox",
		"display_emoji_reaction_users":  true,
		"enable_drafts_synchronization": true, // drafts are always kept on the server (drafts.go)
	}
	if !s.atLeast(LevelUserEmailVisibility) { // a realm setting before
		delete(settings, "email_address_visibility")
	}
	for _, d := range userSettingDefaults {
		if s.atLeast(d.since) {
			settings[d.name] = d.value
		}
	}
	return settings
}

// RealmUserSettingsDefaults is register's realm_user_settings_defaults: the settings a new
// user gets. The real server lists every setting its realm defaults keep, the ones PATCH
// /realm/user_settings_defaults does not take among them (the language, the login and
// marketing emails, the export consent), with their values for a new user; only the time
// zone is not one of them.
func (s *OrganizationState) RealmUserSettingsDefaults() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	builtin := s.builtinUserSettings()
	builtin["allow_private_data_export"] = false // a new user has not consented
	out := map[string]any{}
	for _, d := range s.accts.userSettingRules() {
		if d.Name == "timezone" {
			continue
		}
		out[d.Name] = builtin[d.Name]
		if v, ok := s.userDefaults[d.Name]; ok {
			out[d.Name] = v
		}
	}
	out["available_notification_sounds"] = NotificationSounds
	out["emojiset_choices"] = EmojisetChoices
	return out
}

// UpdateUserSettingsDefaults changes the realm's defaults for new users (PATCH
// /realm/user_settings_defaults; the caller is an administrator). Values are the kinds
// UserDefaultSettings names; every value is checked before any is kept. Users who exist keep
// their settings; each changed default is an event to every active user.
func (s *OrganizationState) UpdateUserSettingsDefaults(changes map[string]any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	byName := map[string]UserDefaultSetting{}
	for _, d := range s.userDefaultSettings() {
		byName[d.Name] = d
	}
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		d, ok := byName[name]
		if !ok {
			return apierr.BadRequest("Invalid %s", name)
		}
		if err := d.check(changes[name]); err != nil {
			return err
		}
	}
	builtin := s.builtinUserSettings()
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		current, ok := s.userDefaults[name]
		if !ok {
			current = builtin[name]
		}
		if current == changes[name] {
			continue
		}
		s.userDefaults[name] = changes[name]
		s.publish(events.Event{"type": "realm_user_settings_defaults", "op": "update", "property": name, "value": changes[name]}, s.accts.activeUserIDs()...)
	}
	return nil
}

// check refuses a value outside the setting's values, as the real server does.
func (d UserDefaultSetting) check(v any) error {
	switch d.Kind {
	case SettingBool:
		if _, ok := v.(bool); !ok {
			return apierr.BadRequest("%s is not a boolean", d.Name)
		}
	case SettingInt:
		n, ok := v.(int)
		if !ok {
			return apierr.BadRequest("%s is not an integer", d.Name)
		}
		if d.ints != nil && !slices.Contains(d.ints, n) {
			return apierr.BadRequest("Invalid %s", d.Name)
		}
		if d.Name == "email_notifications_batching_period_seconds" && (n <= 0 || n > maxEmailBatchingSeconds) {
			return apierr.BadRequest("Invalid email batching period: %d seconds", n)
		}
	case SettingString:
		str, ok := v.(string)
		if !ok {
			return apierr.BadRequest("%s is not a string", d.Name)
		}
		if d.Name == "notification_sound" && !slices.Contains(d.strings, str) {
			return apierr.BadRequest("Invalid notification sound '%s'", str)
		}
		if d.strings != nil && !slices.Contains(d.strings, str) {
			return apierr.BadRequest("Invalid %s", d.Name)
		}
		return checkOwnString(d.Name, str)
	}
	return nil
}

// applyUserDefaults gives a new user the realm's defaults; the caller holds the lock.
func (s *OrganizationState) applyUserDefaults(u *User) {
	if len(s.userDefaults) == 0 {
		return
	}
	u.settings = maps.Clone(s.userDefaults)
	if v, ok := u.settings["presence_enabled"].(bool); ok {
		u.PresenceEnabled = v
	}
	if v, ok := u.settings["email_address_visibility"].(int); ok {
		u.EmailAddressVisibility = v
	}
	delete(u.settings, "presence_enabled")
	delete(u.settings, "email_address_visibility")
}
