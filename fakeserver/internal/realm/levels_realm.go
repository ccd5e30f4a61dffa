package realm

// The feature levels of the organization's plain settings (realm_settings.go), from the real
// server's changelog (levels.go has the rest).
const (
	// LevelSpectatorAccess: enable_spectator_access.
	LevelSpectatorAccess = 109
	// LevelOrgType: PATCH /realm takes org_type, and register gives realm_org_type.
	LevelOrgType = 128
	// LevelCommunitiesDirectory: want_advertise_in_communities_directory.
	LevelCommunitiesDirectory = 129
	// LevelJitsiServerURL: jitsi_server_url.
	LevelJitsiServerURL = 212
	// LevelGuestIndicator: enable_guest_user_indicator.
	LevelGuestIndicator = 216
	// LevelAnnouncementChannels: notifications_stream_id and signup_notifications_stream_id
	// were renamed new_stream_announcements_stream_id and signup_announcements_stream_id.
	LevelAnnouncementChannels = 241
	// LevelUpdateAnnouncements: zulip_update_announcements_stream_id.
	LevelUpdateAnnouncements = 242
	// LevelGuestDMWarning: enable_guest_user_dm_warning.
	LevelGuestDMWarning = 348
)
