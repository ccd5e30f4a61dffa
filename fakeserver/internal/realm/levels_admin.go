package realm

// The feature levels of invitations, data exports, API keys, push tests, call providers and
// a channel field,
// from the real server's changelog (kept apart from levels.go while that list is edited
// elsewhere; the same rules apply).
const (
	// LevelRealmUserDefaults: PATCH /realm/user_settings_defaults, its
	// realm_user_settings_defaults event and register state.
	LevelRealmUserDefaults = 96
	// LevelUserChannels: GET /users/{user_id}/channels (for bots from
	// LevelBotSubscriptionStatus).
	LevelUserChannels = 440
	// LevelCreateChannelRoute: POST /channels/create.
	LevelCreateChannelRoute = 417
	// LevelModerationRequestChannel: the realm setting moderation_request_channel_id (PATCH
	// /realm, register, realm update events).
	LevelModerationRequestChannel = 331
	// LevelMessageReport: POST /messages/{message_id}/report.
	LevelMessageReport = 382
	// LevelReportTypes: register's server_report_message_types.
	LevelReportTypes = 435
	// LevelWelcomeBotTest: POST /realm/test_welcome_bot_custom_message.
	LevelWelcomeBotTest = 416
	// LevelTestNotification: POST /mobile_push/test_notification.
	LevelTestNotification = 217
	// LevelNotifyReferrer: invitations take and show notify_referrer_on_join.
	LevelNotifyReferrer = 267
	// LevelInviteDefaultChannels: invitations take include_realm_default_subscriptions.
	LevelInviteDefaultChannels = 261
	// LevelInviteGroups: invitations take group_ids.
	LevelInviteGroups = 322
	// LevelInviteWelcomeText: invitations take welcome_message_custom_text.
	LevelInviteWelcomeText = 416
	// LevelNavigateToSentMessage: user_settings has web_navigate_to_sent_message.
	LevelNavigateToSentMessage = 268
	// LevelPrivateDataExport: the user setting allow_private_data_export.
	LevelPrivateDataExport = 293
	// LevelExportConsents: GET /export/realm/consents.
	LevelExportConsents = 295
	// LevelExportType: POST /export/realm takes export_type, and exports show it.
	LevelExportType = 304
	// LevelSidebarChannelFolders: user_settings has web_left_sidebar_show_channel_folders.
	LevelSidebarChannelFolders = 411
	// LevelE2EETestNotification: POST /mobile_push/e2ee/test_notification.
	LevelE2EETestNotification = 420
	// LevelConsentEmailVisibility: export consents show email_address_visibility.
	LevelConsentEmailVisibility = 430
	// LevelInboxChannelFolders: user_settings has web_inbox_show_channel_folders.
	LevelInboxChannelFolders = 431
	// LevelExportTypeNames: export_type is a name (public, full_with_consent,
	// full_without_consent), in requests and exports; 1 or 2 before.
	LevelExportTypeNames = 449
	// LevelChannelCreateTopicGroup: channels show can_create_topic_group.
	LevelChannelCreateTopicGroup = 441
	// LevelConstructorGroups: POST /calls/constructorgroups/create.
	LevelConstructorGroups = 460
	// LevelBotAPIKeyRoute: GET /bots/{bot_id}/api_key.
	LevelBotAPIKeyRoute = 463
	// LevelNextcloudTalk: POST /calls/nextcloud_talk/create.
	LevelNextcloudTalk = 465
	// LevelRemoveClientDevice: POST /remove_client_device.
	LevelRemoveClientDevice = 470
)
