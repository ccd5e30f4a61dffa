package realm

import "strings"

// The feature levels at which the API document says a server's behaviour changes, and, where
// the document names none, those of the real server's changelog for what the suite uses. The
// fake reads its fixture's level against these names, so every level gate is listed here
// once; below a boundary the fake answers as a server of that older level does.
const (
	// The boundaries the document names.

	// LevelTopicNames: topic_links and prev_topic (subject_links and prev_subject before).
	LevelTopicNames = 118
	// LevelIgnoredParametersUnsupported: success replies list the parameters the endpoint ignored.
	LevelIgnoredParametersUnsupported = 167
	// LevelUserTopics: POST /user_topics exists (the topic muting endpoint alone before).
	LevelUserTopics = 170
	// LevelWholeTopicTimeLimit: a change_all move is held to the move time limits for the
	// whole topic (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED); only the target message was before.
	LevelWholeTopicTimeLimit = 172
	// LevelBatchComplete: a batched operation (delete topic, mark all as read) answers success
	// with complete; before, an unfinished one answered result partially_completed.
	LevelBatchComplete = 211
	// LevelWildcardFlags: stream_wildcard_mentioned and topic_wildcard_mentioned (and the topic
	// wildcard); only wildcard_mentioned before.
	LevelWildcardFlags = 224
	// LevelPresenceUpdateID: the last_update_id presence protocol (presence_last_update_id in
	// answers; last_update_id an unknown parameter before).
	LevelPresenceUpdateID = 263
	// LevelEmptyTopic: the empty topic is a topic, which clients may name by
	// realm_empty_topic_display_name; before, an empty topic was refused and that name was a
	// topic name like any other.
	LevelEmptyTopic = 334
	// LevelLastMoved: last_moved_timestamp, and last_edit_timestamp for content edits only
	// (a move updated last_edit_timestamp before).
	LevelLastMoved = 365
	// LevelResolveTopicsGroup: resolving a topic takes can_resolve_topics_group (a topic edit,
	// under can_move_messages_between_topics_group, before).
	LevelResolveTopicsGroup = 367
	// LevelPrevContentSHA256: a message edit reads prev_content_sha256 (ignored before).
	LevelPrevContentSHA256 = 379
	// LevelPushRegistration: POST /mobile_push/register exists (an unknown route before).
	LevelPushRegistration = 406
	// LevelPushKey: the early registration's key parameter is push_key (push_public_key before).
	LevelPushKey = 432
	// LevelAttachmentSeconds: an attachment's create_time is in seconds (milliseconds before).
	LevelAttachmentSeconds = 443
	// LevelPushRedesign: push registration names a client device (POST /register_client_device),
	// register gives devices and device events; before, from LevelPushRegistration, it named a
	// push account ID, all fields required, with push_devices and push_device events.
	LevelPushRedesign = 468
	// LevelAttachmentMessageIDs: an attachment lists message_ids (a messages list of id and date_sent before).
	LevelAttachmentMessageIDs = 472
	// LevelLegacyPushRemoval: an E2EE push registration removes the user's legacy registration
	// with the same token (both kinds coexist before).
	LevelLegacyPushRemoval = 483
	// LevelBotOnlyStorage: bot storage is refused to humans (any user's own storage before).
	LevelBotOnlyStorage = 494

	// Where the document names no level: the real server's changelog.

	// LevelClientGravatarDefault: register's client_gravatar defaults to true.
	LevelClientGravatarDefault = 92
	// LevelWholeMessage: GET /messages/{id} answers the message (raw_content alone before).
	LevelWholeMessage = 120
	// LevelGroupRoutes: GET /user_groups/{id}/members/{user_id}, GET /user_groups/{id}/members
	// and POST /user_groups/{id}/subgroups.
	LevelGroupRoutes = 127
	// LevelChannelByID: GET /streams/{stream_id}.
	LevelChannelByID = 132
	// LevelUserTopicState: register gives user_topics and the user's clients get user_topic
	// events (muted_topics alone before; the real server's changelog, the document names no
	// level). From here a client that asks for user_topic no longer gets muted_topics.
	LevelUserTopicState = 134
	// LevelReadReceipts: GET /messages/{message_id}/read_receipts.
	LevelReadReceipts = 137
	// LevelMuteEvents: muting a subscription sends an event for is_muted besides the one for
	// in_home_view (that one alone before; the real server's changelog, the document names
	// no level).
	LevelMuteEvents = 139
	// LevelUserListStyle: user_settings has user_list_style.
	LevelUserListStyle = 141
	// LevelFlagsForNarrow: POST /messages/flags/narrow.
	LevelFlagsForNarrow = 155
	// LevelJWT: POST /jwt/fetch_api_key.
	LevelJWT = 160
	// LevelMoveLimits: the realm settings move_messages_within_stream_limit_seconds and
	// move_messages_between_streams_limit_seconds (a fixed three-day limit on topic moves,
	// realm_community_topic_editing_limit_seconds, and none between channels before).
	LevelMoveLimits = 162
	// LevelUserEmailVisibility: email_address_visibility is each user's own setting (the
	// realm's before, PATCH /realm and realm_email_address_visibility), delivery_email is in
	// every User object (null without access; before, only where the realm's setting gave the
	// viewer access to every address), and avatar_url follows the user's setting.
	LevelUserEmailVisibility = 163
	// LevelRealmNameInEmails: user_settings has realm_name_in_email_notifications_policy.
	LevelRealmNameInEmails = 168
	// LevelIdempotentMuting: muting a muted topic, or unmuting one that is not, succeeds (an
	// error before; the real server's changelog).
	LevelIdempotentMuting = 169
	// LevelScheduledMessages: GET /scheduled_messages and DELETE /scheduled_messages/{id}.
	LevelScheduledMessages = 173
	// LevelDirectType: POST /messages and POST /typing take type "direct" ("private" alone
	// before, still taken since).
	LevelDirectType = 174
	// LevelMarkReadOnScroll: user_settings has web_mark_read_on_scroll_policy.
	LevelMarkReadOnScroll = 175
	// LevelLinkifierURLTemplate: linkifiers use URL templates, sent only to clients that read them.
	LevelLinkifierURLTemplate = 176
	// LevelDMOperators: the dm and dm-including narrow operators and is:dm (pm-with,
	// group-pm-with and is:private alone before, still taken since).
	LevelDMOperators = 177
	// LevelPresenceWebsite: the server no longer stores which client reported presence: the
	// legacy format's per-client entry is always "website" (the reporting client's name before).
	LevelPresenceWebsite = 178
	// LevelScheduleMessages: POST /scheduled_messages, scheduled_messages events and register's
	// scheduled_messages.
	LevelScheduleMessages = 179
	// LevelEditScheduledMessages: PATCH /scheduled_messages/{id}.
	LevelEditScheduledMessages = 184
	// LevelMuteBots: bots may be muted (No such user before).
	LevelMuteBots = 188
	// LevelFollowedTopics: user_settings has the enable_followed_topic_* notification settings.
	LevelFollowedTopics = 189
	// LevelReactionAlreadyExists: a duplicate reaction has its own error code (BAD_REQUEST before).
	LevelReactionAlreadyExists = 193
	// LevelIntegerMessageOperand: the id narrow operator takes an integer operand (a string
	// alone before).
	LevelIntegerMessageOperand = 194
	// LevelPlaygroundTemplate: playgrounds take and show url_template (url_prefix, the URL
	// before the code, before).
	LevelPlaygroundTemplate = 196
	// LevelChannelMembers: GET /streams/{stream_id}/members.
	LevelChannelMembers = 198
	// LevelLinkifierReorder: PATCH /realm/linkifiers.
	LevelLinkifierReorder = 202
	// LevelUnreadsCountDisplay: user_settings has web_stream_unreads_count_display_policy.
	LevelUnreadsCountDisplay = 210
	// LevelAutoFollowTopics: user_settings has automatically_follow_topics_policy and
	// automatically_unmute_topics_in_muted_streams_policy.
	LevelAutoFollowTopics = 214
	// LevelWebHomeView: user_settings has web_escape_navigates_to_home_view.
	LevelWebHomeView = 219
	// LevelChannelEmailAddress: GET /streams/{stream_id}/email_address (before, subscription
	// objects carried email_address, which the fake does not give).
	LevelChannelEmailAddress = 226
	// LevelFollowWhereMentioned: user_settings has automatically_follow_topics_where_mentioned.
	LevelFollowWhereMentioned = 235
	// LevelWebFontSize: user_settings has web_font_size_px and web_line_height_percent.
	LevelWebFontSize = 245
	// LevelRequireUniqueNames: register gives realm_require_unique_names.
	LevelRequireUniqueNames = 246
	// LevelHasReaction: the has:reaction narrow.
	LevelHasReaction = 249
	// LevelChannelOperators: the channel and channels narrow operators (stream and streams
	// alone before, still taken since).
	LevelChannelOperators = 250
	// LevelReceivesTyping: user_settings has receives_typing_notifications.
	LevelReceivesTyping = 253
	// LevelFirstMessageOnDeletion: deleting a channel's oldest messages moves its
	// first_message_id and sends the channel update (it stayed before).
	LevelFirstMessageOnDeletion = 256
	// LevelRealmURL: register gives realm_url (realm_uri alone before, kept since as an alias).
	LevelRealmURL = 257
	// LevelGetUserStatus: GET /users/{user_id}/status.
	LevelGetUserStatus = 262
	// LevelWithOperator: the with narrow operator.
	LevelWithOperator = 271
	// LevelUploadURL: POST /user_uploads answers url (uri alone before, kept since as an alias).
	LevelUploadURL = 272
	// LevelThumbnailFormats: register gives server_thumbnail_formats.
	LevelThumbnailFormats = 273
	// LevelAnimateImagePreviews: user_settings has web_animate_image_previews.
	LevelAnimateImagePreviews = 275
	// LevelChannelDefaultView: user_settings has web_channel_default_view.
	LevelChannelDefaultView = 280
	// LevelDetachedUploads: a message edit answers detached_uploads (nothing before).
	LevelDetachedUploads = 285
	// LevelHistoryLimitDays: presence updates take history_limit_days (unknown before).
	LevelHistoryLimitDays = 288
	// LevelGroupDeactivation: POST /user_groups/{id}/deactivate (groups were deleted before).
	LevelGroupDeactivation = 290
	// LevelGroupDeletionRemoved: DELETE /user_groups/{id} is gone (deactivation replaced it).
	LevelGroupDeletionRemoved = 294
	// LevelSavedSnippets: GET and POST /saved_snippets, DELETE /saved_snippets/{id},
	// saved_snippets events and register's saved_snippets.
	LevelSavedSnippets = 297
	// LevelGroupInUseCode: refusing to deactivate a group in use has its own code,
	// CANNOT_DEACTIVATE_GROUP_IN_USE, with the objections (BAD_REQUEST alone before).
	LevelGroupInUseCode = 298
	// LevelDeactivatedNotMembers: deactivated users are no longer listed as members of their
	// groups (in group objects and the membership routes).
	LevelDeactivatedNotMembers = 303
	// LevelMoveChannelsGroup: can_move_messages_between_channels_group (the role policy
	// move_messages_between_streams_policy before).
	LevelMoveChannelsGroup = 310
	// LevelGroupSubgroupsParams: POST /user_groups/create takes subgroups, and the membership
	// update add_subgroups and delete_subgroups (only POST /user_groups/{id}/subgroups before).
	LevelGroupSubgroupsParams = 311
	// LevelUpdateUserByEmail: PATCH /users/{email}.
	LevelUpdateUserByEmail = 313
	// LevelMoveTopicsGroup: can_move_messages_between_topics_group (the role policy
	// edit_topic_policy before).
	LevelMoveTopicsGroup = 316
	// LevelGroupCreateID: POST /user_groups/create answers group_id (nothing before).
	LevelGroupCreateID = 317
	// LevelReactionUserDropped: reactions no longer carry the legacy user object.
	LevelReactionUserDropped = 328
	// LevelReactionEventUser: reaction events carry the legacy user object again (messages
	// still do not); from LevelReactionUserDropped to here they did not.
	LevelReactionEventUser = 339
	// LevelHideAIFeatures: user_settings has hide_ai_features.
	LevelHideAIFeatures = 350
	// LevelEditTyping: edit typing notifications, through POST /message_edit_typing with
	// message_id in the body until LevelEditTypingRoute.
	LevelEditTyping = 351
	// LevelMentionManyUsersGroup: can_mention_many_users_group (wildcard_mention_policy before).
	LevelMentionManyUsersGroup = 352
	// LevelIgnoredNotSubscribed: marking unread names the unsubscribed channels it skipped.
	LevelIgnoredNotSubscribed = 355
	// LevelEditTypingRoute: POST /messages/{id}/typing replaces POST /message_edit_typing.
	LevelEditTypingRoute = 361
	// LevelBillingGroup: the realm's can_manage_billing_group replaced each user's
	// is_billing_admin, which register no longer gives.
	LevelBillingGroup = 363
	// LevelEditSavedSnippets: PATCH /saved_snippets/{id}.
	LevelEditSavedSnippets = 368
	// LevelArchivingEvents: archiving a channel tells clients for_archiving in its delete event
	// (a guess: the changelog's entry of this level changed archiving's events and names no
	// field; the flag was not sent before).
	LevelArchivingEvents = 378
	// LevelReminders: POST /reminders.
	LevelReminders = 381
	// LevelResolvedNoticePolicy: user_settings has resolved_topic_notice_auto_read_policy.
	LevelResolvedNoticePolicy = 385
	// LevelChannelFolders: channel folders; channel objects carry folder_id.
	LevelChannelFolders = 389
	// LevelChannelTopicsPolicy: channel objects carry topics_policy, and the realm's
	// topics_policy replaces mandatory_topics (register's realm_topics_policy, its realm
	// events); register keeps realm_mandatory_topics, deprecated.
	LevelChannelTopicsPolicy = 392
	// LevelSubscriberCount: channel objects carry subscriber_count.
	LevelSubscriberCount = 394
	// LevelChannelMoveGroups: channel objects carry can_move_messages_out_of_channel_group and
	// can_move_messages_within_channel_group.
	LevelChannelMoveGroups = 396
	// LevelUnreadsCountSummary: user_settings has web_left_sidebar_unreads_count_summary.
	LevelUnreadsCountSummary = 398
	// LevelReminderList: GET /reminders, DELETE /reminders/{id}, reminders events and
	// register's reminders.
	LevelReminderList = 399
	// LevelChannelResolveGroup: channel objects carry can_resolve_topics_group.
	LevelChannelResolveGroup = 402
	// LevelChannelDeleteGroups: channel objects carry can_delete_any_message_group and
	// can_delete_own_message_group.
	LevelChannelDeleteGroups = 407
	// LevelStatusOfOthers: POST /users/{user_id}/status (administrators set others' status).
	LevelStatusOfOthers = 407
	// LevelReminderNote: POST /reminders takes note, and register gives max_reminder_note_length.
	LevelReminderNote = 415
	// LevelNoZephyrField: register no longer gives realm_is_zephyr_mirror_realm.
	LevelNoZephyrField = 426
	// LevelImportedStub: the User object has is_imported_stub (the document names the field
	// without a level; the real server's changelog puts it here).
	LevelImportedStub = 433
	// LevelPushAccountIDInt: push_device events give push_account_id as an integer (a string
	// before).
	LevelPushAccountIDInt = 450
	// LevelBotSubscriptionStatus: GET /users/{id}/subscriptions/{stream_id} and GET
	// /users/{id}/channels answer for bots (No such user before).
	LevelBotSubscriptionStatus = 458
	// LevelLinkifierReverse: linkifiers take and show example_input and reverse_template.
	LevelLinkifierReverse = 471
	// LevelAdminBotStatus: administrators' bots may use POST /users/{user_id}/status.
	LevelAdminBotStatus = 473
	// LevelLinkifierAlternatives: linkifiers take and show alternative_url_templates.
	LevelLinkifierAlternatives = 478
)

// AtLeast tells whether the realm's feature level has reached boundary.
func (s *core) AtLeast(boundary int) bool { return s.Settings().FeatureLevel >= boundary }

// topicNamed is the topic a client names: trimmed, and from LevelEmptyTopic the empty topic's
// display name read as the empty topic.
func (s *core) topicNamed(name string) string {
	name = strings.TrimSpace(name)
	if name == s.settings.EmptyTopicDisplayName && s.atLeast(LevelEmptyTopic) {
		return ""
	}
	return name
}

// atLeast is AtLeast for code that already holds the state's lock.
func (s *core) atLeast(boundary int) bool { return s.settings.FeatureLevel >= boundary }
