package realm

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// The accounts' part of the POST /register state: realm_user, realm_bot, user_settings and
// custom_profile_fields.

// register adds the custom profile fields (the handler adds the rest: it depends on the
// client's options).
func (s *AccountState) register(r RegisterRequest, f map[string]any) {
	if r.want("custom_profile_fields") {
		f["custom_profile_fields"] = s.ProfileFields()
	}
}

// RegisteredUsers is the realm_user part of the state: the active accounts (humans and
// bots) and the deactivated ones, each as the viewer sees them.
type RegisteredUsers struct {
	Active, NonActive []UserView
	Me                UserView
}

// RegisterUsers returns the accounts of the realm_user state. With clientGravatar, the
// avatar URL is null wherever the client can compute it (it sees the real email; every
// avatar of the fake is a gravatar).
func (s *AccountState) RegisterUsers(viewerID int, clientGravatar bool) RegisteredUsers {
	s.mu.RLock()
	defer s.mu.RUnlock()
	viewer := s.users[viewerID]
	out := RegisteredUsers{Active: []UserView{}, NonActive: []UserView{}, Me: s.userView(viewer, viewer)}
	for _, id := range slices.Sorted(maps.Keys(s.users)) {
		u := s.users[id]
		v := s.userView(viewer, u)
		if mutation.On("register-users-real-email") {
			v.Email = u.Email
		}
		s.clientGravatar(&v, viewer, u, clientGravatar)
		if u.IsActive {
			out.Active = append(out.Active, v)
		} else {
			out.NonActive = append(out.NonActive, v)
		}
	}
	return out
}

// RegisterBots returns realm_bots: the bots the user owns, every bot for an administrator.
func (s *AccountState) RegisterBots(viewerID int) []map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	viewer := s.users[viewerID]
	out := []map[string]any{}
	for _, id := range slices.Sorted(maps.Keys(s.users)) {
		b := s.users[id]
		if !b.IsBot || (b.BotOwnerID != viewer.ID && !viewer.IsAdmin()) {
			continue
		}
		out = append(out, s.botObject(b))
	}
	return out
}

// UserSettings is the user_settings state: the settings the fake keeps, and the real
// server's defaults of the others a client reads.
func (s *AccountState) UserSettings(userID int) map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.userSettingsOf(s.users[userID])
}

// userSettingsOf is UserSettings with the lock held.
func (s *AccountState) userSettingsOf(u *User) map[string]any {
	settings := s.org.builtinUserSettings()
	maps.Copy(settings, u.settings)
	settings["presence_enabled"], settings["timezone"] = u.PresenceEnabled, u.Timezone
	settings["email_address_visibility"] = u.EmailAddressVisibility
	settings["allow_private_data_export"] = s.org.consented[u.ID]
	if !s.atLeast(LevelUserEmailVisibility) { // a realm setting before
		delete(settings, "email_address_visibility")
	}
	if !s.atLeast(LevelPrivateDataExport) {
		delete(settings, "allow_private_data_export")
	}
	return settings
}

// userSettingDefaults are the rest of the real server's user settings, which no route of the
// fake changes: each with the real server's default for a new user and the level that added
// it (0: before user_settings itself, level 89).
var userSettingDefaults = []struct {
	name  string
	value any
	since int
}{
	{"starred_message_counts", true, 0},
	{"fluid_layout_width", false, 0},
	{"high_contrast_mode", false, 0},
	{"translate_emoticons", false, 0},
	{"left_side_userlist", false, 0},
	{"demote_inactive_streams", 1, 0},
	{"notification_sound", "zulip", 0},
	{"email_notifications_batching_period_seconds", 120, 0},
	{"enable_online_push_notifications", true, 0},
	{"enable_digest_emails", true, 0},
	{"enable_marketing_emails", true, 0},
	{"enable_login_emails", true, 0},
	{"message_content_in_email_notifications", true, 0},
	{"pm_content_in_desktop_notifications", true, 0},
	{"desktop_icon_count_display", 1, 0},
	{"user_list_style", 2, LevelUserListStyle},
	{"realm_name_in_email_notifications_policy", 1, LevelRealmNameInEmails},
	{"web_mark_read_on_scroll_policy", 1, LevelMarkReadOnScroll},
	{"enable_followed_topic_desktop_notifications", true, LevelFollowedTopics},
	{"enable_followed_topic_email_notifications", true, LevelFollowedTopics},
	{"enable_followed_topic_push_notifications", true, LevelFollowedTopics},
	{"enable_followed_topic_audible_notifications", true, LevelFollowedTopics},
	{"enable_followed_topic_wildcard_mentions_notify", true, LevelFollowedTopics},
	{"web_stream_unreads_count_display_policy", 2, LevelUnreadsCountDisplay},
	{"automatically_follow_topics_policy", 3, LevelAutoFollowTopics},
	{"automatically_unmute_topics_in_muted_streams_policy", 2, LevelAutoFollowTopics},
	{"web_escape_navigates_to_home_view", true, LevelWebHomeView},
	{"automatically_follow_topics_where_mentioned", true, LevelFollowWhereMentioned},
	{"web_font_size_px", 16, LevelWebFontSize},
	{"web_line_height_percent", 140, LevelWebFontSize},
	{"receives_typing_notifications", true, LevelReceivesTyping},
	{"web_animate_image_previews", "on_hover", LevelAnimateImagePreviews},
	{"web_channel_default_view", 1, LevelChannelDefaultView},
	{"hide_ai_features", false, LevelHideAIFeatures},
	{"resolved_topic_notice_auto_read_policy", "except_followed", LevelResolvedNoticePolicy},
	{"web_left_sidebar_unreads_count_summary", true, LevelUnreadsCountSummary},
	{"web_navigate_to_sent_message", true, LevelNavigateToSentMessage},
	{"web_left_sidebar_show_channel_folders", true, LevelSidebarChannelFolders},
	{"web_inbox_show_channel_folders", true, LevelInboxChannelFolders},
}
