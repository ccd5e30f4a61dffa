package realm

import (
	"maps"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // time zone names are checked against the IANA database wherever the fake runs

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// SettingsUpdate is a PATCH /settings request: the user settings to change, of the kinds
// UserSettingRules names, the full name, an email change to start, and a password change
// (the new password with the old one); nil: unchanged.
type SettingsUpdate struct {
	FullName                 *string
	Email                    *string
	OldPassword, NewPassword *string
	Values                   map[string]any
}

// Languages are the default_language codes the fake takes, with the names the real server
// gives them in events (its language_name_map, in part).
var Languages = map[string]string{
	"en": "English", "de": "Deutsch", "es": "español", "fr": "français", "it": "italiano",
	"ja": "日本語", "pt": "português", "ru": "русский", "zh-hans": "简体中文",
}

// legacyEventSettings are the settings whose changes the real server also announces in the
// event types that came before user_settings (to clients without user_settings_object).
var legacyEventSettings = func() map[string]string {
	out := map[string]string{"timezone": "update_display_settings"}
	for _, name := range []string{
		"color_scheme", "default_language", "web_home_view", "demote_inactive_streams", "emojiset",
		"enable_drafts_synchronization", "enter_sends", "fluid_layout_width", "high_contrast_mode",
		"left_side_userlist", "starred_message_counts", "translate_emoticons", "twenty_four_hour_time",
	} {
		out[name] = "update_display_settings"
	}
	for _, name := range []string{
		"desktop_icon_count_display", "email_notifications_batching_period_seconds",
		"enable_desktop_notifications", "enable_digest_emails", "enable_login_emails",
		"enable_marketing_emails", "enable_offline_email_notifications", "enable_offline_push_notifications",
		"enable_online_push_notifications", "enable_sounds", "enable_stream_audible_notifications",
		"enable_stream_desktop_notifications", "enable_stream_email_notifications",
		"enable_stream_push_notifications", "message_content_in_email_notifications", "notification_sound",
		"pm_content_in_desktop_notifications", "presence_enabled", "realm_name_in_email_notifications_policy",
		"wildcard_mentions_notify",
	} {
		out[name] = "update_global_notifications"
	}
	return out
}()

// LegacySettings are the settings of a legacy event type (update_display_settings or
// update_global_notifications), sorted: the real server also gives them at the top level of
// register's state to clients without user_settings_object.
func LegacySettings(eventType string) []string {
	var out []string
	for name, t := range legacyEventSettings {
		if t == eventType {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// UserSettingRules are the settings PATCH /settings takes at the realm's level.
func (s *AccountState) UserSettingRules() []UserDefaultSetting {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.userSettingRules()
}

func (s *AccountState) userSettingRules() []UserDefaultSetting {
	var out []UserDefaultSetting
	for _, d := range userDefaultRules {
		if s.atLeast(d.since) {
			out = append(out, d)
		}
	}
	return out
}

// UpdateUserSettings changes the user's own settings (PATCH /settings). Every value is checked
// before any is kept; each changed setting is a user_settings event to the user, as on the
// real server, with its legacy event where it has one.
func (s *AccountState) UpdateUserSettings(userID int, up SettingsUpdate) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rules := map[string]UserDefaultSetting{}
	for _, d := range s.userSettingRules() {
		rules[d.Name] = d
	}
	for _, name := range slices.Sorted(maps.Keys(up.Values)) {
		d, ok := rules[name]
		if !ok {
			return apierr.BadRequest("Invalid %s", name)
		}
		if err := d.check(up.Values[name]); err != nil {
			return err
		}
	}
	u := s.users[userID]
	if up.NewPassword != nil {
		oldPassword := ""
		if up.OldPassword != nil {
			oldPassword = *up.OldPassword
		}
		if err := checkPasswordChange(u, oldPassword, *up.NewPassword); err != nil {
			return err
		}
	}
	var newEmail string
	if up.Email != nil {
		var err error
		if newEmail, err = s.checkEmailChange(u, *up.Email); err != nil {
			return err
		}
	}
	name := u.FullName
	if up.FullName != nil {
		if err := checkFullName(*up.FullName); err != nil {
			return err
		}
		name = strings.TrimSpace(*up.FullName)
	}
	if up.NewPassword != nil { // no event: the API key stays, so do the user's clients
		u.Password = *up.NewPassword
	}
	if newEmail != "" { // the real server mails a link to the new address; nothing changes yet
		s.pendingEmails[u.ID] = pendingEmail{from: u.Email, to: newEmail}
	}
	if name != u.FullName {
		u.FullName = name
		s.publishUserUpdate(u, map[string]any{"full_name": name})
	}
	current := s.userSettingsOf(u)
	for _, setting := range slices.Sorted(maps.Keys(up.Values)) {
		if current[setting] != up.Values[setting] {
			s.changeUserSetting(u, setting, up.Values[setting])
		}
	}
	return nil
}

// changeUserSetting keeps a checked, changed value and announces it; the caller holds the lock.
func (s *AccountState) changeUserSetting(u *User, name string, value any) {
	switch name {
	case "email_address_visibility":
		s.setEmailVisibility(u, value.(int))
		return
	case "allow_private_data_export":
		s.org.setPrivateDataExport(u.ID, value.(bool))
		return
	case "presence_enabled":
		u.PresenceEnabled = value.(bool)
	case "timezone":
		u.Timezone = value.(string)
	default:
		if u.settings == nil {
			u.settings = map[string]any{}
		}
		u.settings[name] = value
	}
	ev := events.Event{"type": "user_settings", "op": "update", "property": name, "value": value}
	if name == "default_language" {
		ev["language_name"] = Languages[value.(string)]
	}
	s.publish(ev, u.ID)
	if legacyType, ok := legacyEventSettings[name]; ok {
		legacy := events.Event{"type": legacyType, "user": s.apiEmail(u), "setting": value}
		if legacyType == "update_global_notifications" {
			legacy["notification_name"] = name
		} else {
			legacy["setting_name"] = name
		}
		if name == "default_language" {
			legacy["language_name"] = Languages[value.(string)]
		}
		s.events.PublishEach(func(_ int, c events.Client) []events.Event {
			if c.Can("user_settings_object") { // such clients get user_settings events alone
				return nil
			}
			return []events.Event{legacy}
		}, u.ID)
	}
	if name == "timezone" { // everyone sees a user's time zone
		s.publishUserUpdate(u, map[string]any{"email": s.apiEmail(u), "timezone": value})
	}
}

// checkOwnString refuses a language or time zone the real server does not know.
func checkOwnString(name, value string) error {
	switch name {
	case "default_language":
		if _, ok := Languages[value]; !ok {
			return apierr.BadRequest("Invalid default_language")
		}
	case "timezone":
		// LoadLocation also takes "" and "Local", which name no time zone.
		if _, err := time.LoadLocation(value); err != nil || value == "" || value == "Local" {
			return apierr.BadRequest("Not a recognized time zone")
		}
	}
	return nil
}
