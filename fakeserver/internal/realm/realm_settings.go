package realm

import (
	"maps"
	"net/url"
	"slices"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// The organization's plain settings of PATCH /realm: those the real server keeps as realm
// properties (do_set_realm_property), each announced by a realm event with op update, property
// and value, and shown in register as realm_<name>. The editing settings, the group settings
// and the moderation channel have their own files (edit_settings.go, message_report.go).

// The kinds of organization setting beyond the user settings' (SettingBool, SettingInt,
// SettingString, which PATCH /realm takes as they are, a string unencoded).
const (
	// SettingURL is a JSON string: a URL, or "default" (null, the server's own).
	SettingURL SettingKind = iota + 10
	// SettingChannel is a channel ID, -1 (or any negative ID) for none.
	SettingChannel
	// SettingDays is a number of days, or "unlimited" (-1).
	SettingDays
)

// RealmSetting is one plain organization setting: its API name, the kind of its value, and
// the real server's checks, default and levels.
type RealmSetting struct {
	Name string
	Kind SettingKind
	def  any
	// choices are the values an integer setting takes (nil: any from 0 up).
	choices []int
	// maxLen bounds a string's length in characters (0: no bound).
	maxLen int
	// invalid is the refusal of an integer outside choices, given the value ("" for "Invalid <name>").
	invalid string
	// owner: only an organization owner may change it.
	owner bool
	// since and until are the levels where it exists (until 0: it still does); key is where a
	// renamed setting keeps its value ("" for Name).
	since, until int
	key          string
}

// jitsiURLMaxLength bounds jitsi_server_url, as on the real server.
const jitsiURLMaxLength = 200

// VideoChatProviders are the video_chat_provider IDs the fake takes: none, Jitsi Meet, Zoom
// and BigBlueButton.
var VideoChatProviders = []int{0, 1, 3, 4}

// realmSettings are the plain settings, with the real server's defaults for a new organization
// (the name and description are the fixture's).
var realmSettings = []RealmSetting{
	{Name: "name", Kind: SettingString, maxLen: 40},
	{Name: "description", Kind: SettingString, maxLen: 1000},
	{Name: "default_language", Kind: SettingString, def: "en"},
	{Name: "default_code_block_language", Kind: SettingString, def: ""},
	{Name: "emails_restricted_to_domains", Kind: SettingBool, def: false, owner: true},
	{Name: "disallow_disposable_email_addresses", Kind: SettingBool, def: true, owner: true},
	{Name: "invite_required", Kind: SettingBool, def: true, owner: true},
	{Name: "waiting_period_threshold", Kind: SettingInt, def: 0, owner: true},
	{Name: "message_retention_days", Kind: SettingDays, def: -1, owner: true},
	{Name: "name_changes_disabled", Kind: SettingBool, def: false},
	{Name: "email_changes_disabled", Kind: SettingBool, def: false},
	{Name: "avatar_changes_disabled", Kind: SettingBool, def: false},
	{Name: "inline_image_preview", Kind: SettingBool, def: true},
	{Name: "inline_url_embed_preview", Kind: SettingBool, def: true},
	{Name: "send_welcome_emails", Kind: SettingBool, def: true},
	{Name: "digest_emails_enabled", Kind: SettingBool, def: false},
	{Name: "digest_weekday", Kind: SettingInt, def: 1, choices: []int{0, 1, 2, 3, 4, 5, 6}},
	{Name: "message_content_allowed_in_email_notifications", Kind: SettingBool, def: true},
	{Name: "video_chat_provider", Kind: SettingInt, def: 1, choices: VideoChatProviders, invalid: "Invalid video_chat_provider %d"},
	{Name: "jitsi_server_url", Kind: SettingURL, def: nil, since: LevelJitsiServerURL},
	{Name: "enable_spectator_access", Kind: SettingBool, def: false, since: LevelSpectatorAccess},
	{Name: "org_type", Kind: SettingInt, def: 0, choices: []int{0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000}, since: LevelOrgType},
	{Name: "want_advertise_in_communities_directory", Kind: SettingBool, def: false, since: LevelCommunitiesDirectory},
	{Name: "enable_read_receipts", Kind: SettingBool, def: false, since: LevelReadReceipts},
	{Name: "enable_guest_user_indicator", Kind: SettingBool, def: true, since: LevelGuestIndicator},
	{Name: "require_unique_names", Kind: SettingBool, def: false, since: LevelRequireUniqueNames},
	{Name: "enable_guest_user_dm_warning", Kind: SettingBool, def: true, since: LevelGuestDMWarning},
	{Name: "notifications_stream_id", Kind: SettingChannel, def: -1, until: LevelAnnouncementChannels, key: "new_stream_announcements_stream_id"},
	{Name: "new_stream_announcements_stream_id", Kind: SettingChannel, def: -1, since: LevelAnnouncementChannels},
	{Name: "signup_notifications_stream_id", Kind: SettingChannel, def: -1, until: LevelAnnouncementChannels, key: "signup_announcements_stream_id"},
	{Name: "signup_announcements_stream_id", Kind: SettingChannel, def: -1, since: LevelAnnouncementChannels},
	{Name: "zulip_update_announcements_stream_id", Kind: SettingChannel, def: -1, since: LevelUpdateAnnouncements},
}

func (r RealmSetting) storedAs() string {
	if r.key != "" {
		return r.key
	}
	return r.Name
}

// RealmSettings are the plain settings PATCH /realm takes at the realm's level.
func (s *OrganizationState) RealmSettings() []RealmSetting {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.realmSettingsAtLevel()
}

func (s *OrganizationState) realmSettingsAtLevel() []RealmSetting {
	var out []RealmSetting
	for _, r := range realmSettings {
		if s.atLeast(r.since) && (r.until == 0 || !s.atLeast(r.until)) {
			out = append(out, r)
		}
	}
	return out
}

// realmSetting is a setting's value; the caller holds the lock.
func (s *OrganizationState) realmSetting(r RealmSetting) any {
	if v, ok := s.realmSettings[r.storedAs()]; ok {
		return v
	}
	if r.Name == "name" || r.Name == "description" {
		return s.settings.Name // the fixture's
	}
	return r.def
}

// RealmSettingValue is the setting's value by its API name (nil for an unknown name).
func (s *OrganizationState) RealmSettingValue(name string) any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.realmSettingNamed(name)
}

// realmSettingNamed is RealmSettingValue for a caller that holds the lock.
func (s *OrganizationState) realmSettingNamed(name string) any {
	i := slices.IndexFunc(realmSettings, func(r RealmSetting) bool { return r.Name == name })
	if i < 0 {
		return nil
	}
	return s.realmSetting(realmSettings[i])
}

// realmName is the organization's name; the caller holds the lock.
func (s *OrganizationState) realmName() string {
	if v, ok := s.realmSettings["name"]; ok {
		return v.(string)
	}
	return s.settings.Name
}

// RealmDescriptionHTML is the organization's description rendered, as register and GET
// /server_settings show it.
func (s *OrganizationState) RealmDescriptionHTML() string {
	return s.msgs.Render(s.RealmSettingValue("description").(string))
}

// RealmSettingsState is register's realm_<name> of each plain setting at the realm's level;
// the description rendered, as the real server gives it.
func (s *OrganizationState) RealmSettingsState() map[string]any {
	s.mu.RLock()
	out := map[string]any{}
	for _, r := range s.realmSettingsAtLevel() {
		out["realm_"+r.Name] = s.realmSetting(r)
	}
	s.mu.RUnlock()
	out["realm_description"] = s.RealmDescriptionHTML()
	return out
}

// checkRealmSetting refuses a value as the real server does; the caller holds the lock. Values
// are of the setting's kind: bool, int (channel IDs and days too), string, or *string for a URL
// (nil: the server's default).
func (s *OrganizationState) checkRealmSetting(r RealmSetting, v any, byOwner bool) error {
	if r.owner && !byOwner {
		return apierr.MustBeOwner
	}
	switch r.Kind {
	case SettingString:
		str := v.(string)
		if r.maxLen > 0 && utf8.RuneCountInString(str) > r.maxLen {
			return apierr.BadRequest("%s is too long (limit: %d characters)", r.Name, r.maxLen)
		}
		if _, known := Languages[str]; r.Name == "default_language" && !known {
			return apierr.BadRequest("Invalid language '%s'", str)
		}
	case SettingInt:
		n := v.(int)
		if r.choices != nil && !slices.Contains(r.choices, n) {
			if r.invalid != "" {
				return apierr.BadRequest(r.invalid, n)
			}
			return apierr.BadRequest("Invalid %s", r.Name)
		}
		if n < 0 {
			return apierr.BadRequest("%s is too small", r.Name)
		}
	case SettingDays:
		if n := v.(int); n <= 0 && n != -1 {
			return apierr.BadRequest("Bad value for '%s': %d", r.Name, n)
		}
	case SettingURL:
		if u := v.(*string); u != nil && (utf8.RuneCountInString(*u) > jitsiURLMaxLength || !isWebURL(*u)) {
			return apierr.BadRequest("%s is not an allowed_type", r.Name)
		}
	case SettingChannel:
		if id := v.(int); id >= 0 {
			if ch := s.chans.channels[id]; ch == nil || ch.Archived {
				return apierr.InvalidChannel
			}
		}
	}
	return nil
}

// checkRealmSettings checks every change, in name order, and gives the settings at the realm's
// level by name; the caller holds the lock.
func (s *OrganizationState) checkRealmSettings(changes map[string]any, byOwner bool) (map[string]RealmSetting, error) {
	byName := map[string]RealmSetting{}
	for _, r := range s.realmSettingsAtLevel() {
		byName[r.Name] = r
	}
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		r, known := byName[name]
		if !known {
			return nil, apierr.BadRequest("Invalid %s", name)
		}
		if err := s.checkRealmSetting(r, changes[name], byOwner); err != nil {
			return nil, err
		}
	}
	return byName, nil
}

// applyRealmSettings keeps plain settings (PATCH /realm) that checkRealmSettings passed, with
// the settings by name it gave, and announces each change to every active user; the answer is
// the changed settings as PATCH /realm echoes them (a changed string as "updated", as the real
// server does). The caller holds the write lock.
func (s *OrganizationState) applyRealmSettings(changes map[string]any, byName map[string]RealmSetting) map[string]any {
	changed := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		r, v := byName[name], changes[name]
		if u, isURL := v.(*string); isURL {
			v = nil
			if u != nil {
				v = *u
			}
		}
		if s.realmSetting(r) == v {
			continue
		}
		s.realmSettings[r.storedAs()] = v
		changed[name] = v
		if _, isString := v.(string); isString {
			changed[name] = "updated"
		}
		s.publish(events.Event{"type": "realm", "op": "update", "property": name, "value": v}, s.accts.activeUserIDs()...)
	}
	return changed
}

// isWebURL is whether u is an absolute http or https URL with a host.
func isWebURL(u string) bool {
	parsed, err := url.Parse(u)
	return err == nil && (parsed.Scheme == "http" || parsed.Scheme == "https") && parsed.Host != ""
}
