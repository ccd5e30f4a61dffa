package api

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// The route table: every route of the fake, grouped by the resource its path names. A trailing
// number is the operation's number in the API document; the other routes are the real server's
// supporting operations that clients and the suite's provisioning need. The stages every
// request passes before it gets here are in pipeline.go.

// Path patterns of integer IDs: a non-numeric ID matches no route, as on the real server.
const (
	messageID      = "{message_id:[0-9]+}"
	streamID       = "{stream_id:[0-9]+}"
	userID         = "{user_id:[0-9]+}"
	filterID       = "{filter_id:[0-9]+}"
	playgroundI    = "{playground_id:[0-9]+}"
	userGroupID    = "{user_group_id:[0-9]+}"
	profileFieldID = "{field_id:[0-9]+}"
	attachmentID   = "{attachment_id:[0-9]+}"
	reminderID     = "{reminder_id:[0-9]+}"
	botID          = "{bot_id:[0-9]+}"
	inviteID       = "{invite_id:[0-9]+}"
	// UserEmail is an email address in a path: a segment with an @, so that numeric user IDs
	// and words such as "me" keep their own routes.
	UserEmail = "{email:[^/]*(?:@|%40)[^/]*}"
)

// pathParam is a path parameter as the real server reads it, percent-decoded: it routes the
// decoded path, so /user_uploads/2/ab%2Fc.txt names the file 2/ab/c.txt. chi routes the path
// as sent (URL.RawPath) when the client escaped more than Go would (%2F, %40, …) and then
// gives the parameters escaped; otherwise they are decoded already.
func pathParam(r *http.Request, name string) string {
	v := chi.URLParam(r, name)
	if r.URL.RawPath == "" {
		return v
	}
	if decoded, err := url.PathUnescape(v); err == nil {
		return decoded
	}
	return v
}

// UserIDOrEmail is a user ID or an email address in a path, anything but "me", whose routes
// come first on the real server (GET /users/me/presence is a wrong method, not a lookup of "me").
const UserIDOrEmail = "{user_id_or_email:(?:[^/][^/][^/]+|[^/m][^/]?|m[^/e]?)}"

// Prefix is where the API's routes are.
const Prefix = "/api/v1"

// PublicPaths answer without credentials: the routes of PublicRoutes.
var PublicPaths = map[string]bool{
	"/api/v1/server_settings":   true,
	"/api/v1/fetch_api_key":     true,
	"/api/v1/jwt/fetch_api_key": true,
	"/api/v1/dev_fetch_api_key": true,
}

// PublicRoutes adds the API's routes that take no credentials.
func PublicRoutes(r chi.Router) { routeTable{}.publicRoutes(r) }

func (t routeTable) publicRoutes(r chi.Router) {
	r.Get("/server_settings", serve((*Service).serverSettings))
	r.Post("/fetch_api_key", serve((*Service).fetchAPIKey))
	r.Post("/dev_fetch_api_key", serve((*Service).devFetchAPIKey))
	t.gated(r, http.MethodPost, "/jwt/fetch_api_key", levelGate{from: realm.LevelJWT}, (*Service).jwtFetchAPIKey) // 9
}

// Routes adds the API's authenticated routes.
func Routes(r chi.Router) { routeTable{}.routes(r) }

func (t routeTable) routes(r chi.Router) {
	// Register and the event queue (the state register returns: register.go).
	r.Post("/register", serve((*Service).register))
	r.Get("/events", serve((*Service).getEvents))
	r.Delete("/events", serve((*Service).deleteEvents))

	// Messages.
	r.Get("/messages", serve((*Service).getMessages))
	r.Post("/messages", typed((*Service).sendMessage))
	r.Get("/messages/"+messageID, typed((*Service).getMessage))      // 6
	r.Patch("/messages/"+messageID, serve((*Service).updateMessage)) // 1
	r.Delete("/messages/"+messageID, serve((*Service).deleteMessage))
	r.Get("/messages/"+messageID+"/history", serve((*Service).getMessageHistory))
	r.Post("/messages/render", serve((*Service).renderMessage))
	r.Get("/messages/matches_narrow", serve((*Service).matchesNarrow))                                                                // 5
	t.gated(r, http.MethodPost, "/messages/"+messageID+"/typing", levelGate{from: realm.LevelEditTypingRoute}, (*Service).editTyping) // 13
	t.gated(r, http.MethodPost, "/message_edit_typing", levelGate{from: realm.LevelEditTyping, until: realm.LevelEditTypingRoute}, (*Service).editTypingLegacy)
	r.Post("/typing", serve((*Service).setTyping))
	r.Post("/messages/"+messageID+"/reactions", serve((*Service).addReaction))
	r.Delete("/messages/"+messageID+"/reactions", serve((*Service).removeReaction))
	r.Post("/submessage", serve((*Service).addSubmessage))
	t.gated(r, http.MethodGet, "/messages/"+messageID+"/read_receipts", levelGate{from: realm.LevelReadReceipts}, (*Service).getReadReceipts)
	t.gated(r, http.MethodPost, "/messages/"+messageID+"/report", levelGate{from: realm.LevelMessageReport}, (*Service).reportMessage)

	// Message flags and read marking.
	r.Post("/messages/flags", serve((*Service).updateFlags))
	t.gated(r, http.MethodPost, "/messages/flags/narrow", levelGate{from: realm.LevelFlagsForNarrow}, (*Service).updateFlagsForNarrow)
	r.Post("/mark_all_as_read", serve((*Service).markAllAsRead)) // 19
	r.Post("/mark_stream_as_read", serve((*Service).markStreamAsRead))
	r.Post("/mark_topic_as_read", serve((*Service).markTopicAsRead))

	// Scheduled messages, reminders, drafts and saved snippets.
	scheduledID := "/scheduled_messages/{scheduled_message_id:[0-9]+}"
	t.gated(r, http.MethodGet, "/scheduled_messages", levelGate{from: realm.LevelScheduledMessages}, (*Service).getScheduledMessages)
	t.gated(r, http.MethodPost, "/scheduled_messages", levelGate{from: realm.LevelScheduleMessages}, (*Service).createScheduledMessage)
	t.gated(r, http.MethodPatch, scheduledID, levelGate{from: realm.LevelEditScheduledMessages}, (*Service).editScheduledMessage)
	t.gated(r, http.MethodDelete, scheduledID, levelGate{from: realm.LevelScheduledMessages}, (*Service).deleteScheduledMessage)
	t.gated(r, http.MethodPost, "/reminders", levelGate{from: realm.LevelReminders}, (*Service).createReminder) // 15
	t.gated(r, http.MethodGet, "/reminders", levelGate{from: realm.LevelReminderList}, (*Service).getReminders)
	t.gated(r, http.MethodDelete, "/reminders/"+reminderID, levelGate{from: realm.LevelReminderList}, (*Service).deleteReminder)
	r.Get("/drafts", serve((*Service).getDrafts))
	r.Post("/drafts", serve((*Service).createDrafts))
	r.Patch("/drafts/{draft_id:[0-9]+}", serve((*Service).editDraft))
	r.Delete("/drafts/{draft_id:[0-9]+}", serve((*Service).deleteDraft))
	snippetID := "/saved_snippets/{saved_snippet_id:[0-9]+}"
	t.gated(r, http.MethodGet, "/saved_snippets", levelGate{from: realm.LevelSavedSnippets}, (*Service).getSavedSnippets)
	t.gated(r, http.MethodPost, "/saved_snippets", levelGate{from: realm.LevelSavedSnippets}, (*Service).createSavedSnippet)
	t.gated(r, http.MethodPatch, snippetID, levelGate{from: realm.LevelEditSavedSnippets}, (*Service).editSavedSnippet)
	t.gated(r, http.MethodDelete, snippetID, levelGate{from: realm.LevelSavedSnippets}, (*Service).deleteSavedSnippet)

	// Channels (streams) and their topics.
	r.Get("/streams", serve((*Service).getChannels))
	t.gated(r, http.MethodPost, "/channels/create", levelGate{from: realm.LevelCreateChannelRoute}, (*Service).createChannel)
	t.gated(r, http.MethodGet, "/streams/"+streamID, levelGate{from: realm.LevelChannelByID}, (*Service).getChannel)
	r.Patch("/streams/"+streamID, serve((*Service).updateChannel))
	r.Delete("/streams/"+streamID, serve((*Service).archiveChannel))
	r.Get("/get_stream_id", serve((*Service).getStreamID))
	r.Post("/default_streams", serve(adminOnly((*Service).addDefaultChannel)))
	r.Delete("/default_streams", serve(adminOnly((*Service).removeDefaultChannel)))
	t.gated(r, http.MethodGet, "/streams/"+streamID+"/members", levelGate{from: realm.LevelChannelMembers}, (*Service).getChannelMembers)
	t.gated(r, http.MethodGet, "/streams/"+streamID+"/email_address", levelGate{from: realm.LevelChannelEmailAddress}, (*Service).getChannelEmailAddress)
	r.Get("/users/me/"+streamID+"/topics", serve((*Service).getTopics))                    // 12
	r.Post("/streams/"+streamID+"/delete_topic", serve(adminOnly((*Service).deleteTopic))) // 8
	r.Patch("/users/me/subscriptions/muted_topics", serve((*Service).muteTopic))           // 3
	t.gated(r, http.MethodPost, "/user_topics", levelGate{from: realm.LevelUserTopics}, (*Service).updateUserTopic)

	// Channel folders.
	folderID := "/channel_folders/{channel_folder_id:[0-9]+}"
	t.gated(r, http.MethodPost, "/channel_folders/create", levelGate{from: realm.LevelChannelFolders}, adminOnly((*Service).createChannelFolder))
	t.gated(r, http.MethodGet, "/channel_folders", levelGate{from: realm.LevelChannelFolders}, (*Service).getChannelFolders)
	t.gated(r, http.MethodPatch, "/channel_folders", levelGate{from: realm.LevelChannelFolderOrder}, adminOnly((*Service).reorderChannelFolders))
	t.gated(r, http.MethodPatch, folderID, levelGate{from: realm.LevelChannelFolders}, adminOnly((*Service).updateChannelFolder))

	// Subscriptions.
	r.Get("/users/me/subscriptions", serve((*Service).getSubscriptions))
	r.Post("/users/me/subscriptions", serve((*Service).subscribe))
	r.Delete("/users/me/subscriptions", serve((*Service).unsubscribe))
	r.Patch("/users/me/subscriptions", serve((*Service).updateSubscriptions))
	r.Patch("/users/me/subscriptions/"+streamID, serve((*Service).updateSubscription)) // 10
	r.Post("/users/me/subscriptions/properties", serve((*Service).updateSubscriptionProperties))
	r.Get("/users/"+userID+"/subscriptions/"+streamID, serve((*Service).getSubscriptionStatus))
	t.gated(r, http.MethodGet, "/users/"+userID+"/channels", levelGate{from: realm.LevelUserChannels}, (*Service).getUserChannels)

	// Users and bots.
	r.Get("/users", serve((*Service).getUsers))
	r.Post("/users", serve(adminOnly((*Service).createUser))) // 11
	r.Get("/users/me", typed((*Service).getOwnUser))
	r.Delete("/users/me", serve((*Service).deactivateSelf))
	r.Get("/users/"+userID, serve((*Service).getUser))
	r.Patch("/users/"+userID, serve((*Service).updateUser))
	r.Delete("/users/"+userID, serve(adminOnly((*Service).deactivateUser)))
	r.Post("/users/"+userID+"/reactivate", serve(adminOnly((*Service).reactivateUser)))
	r.Get("/users/"+UserEmail, serve((*Service).getUserByEmail))
	t.gated(r, http.MethodPatch, "/users/"+UserEmail, levelGate{from: realm.LevelUpdateUserByEmail}, (*Service).updateUserByEmail) // 2
	r.Post("/bots", serve(humansOnly((*Service).createBot)))
	r.Delete("/bots/"+botID, serve((*Service).deactivateBot))
	r.Patch("/bots/"+botID, serve(membersOnly((*Service).updateBot)))
	r.Post("/users/me/api_key/regenerate", serve(humansOnly((*Service).regenerateAPIKey)))
	t.gated(r, http.MethodGet, "/bots/"+botID+"/api_key", levelGate{from: realm.LevelBotAPIKeyRoute}, membersOnly(botAPIKey((*realm.State).BotAPIKey)))
	r.Post("/bots/"+botID+"/api_key/regenerate", serve(membersOnly(botAPIKey((*realm.State).RegenerateBotAPIKey))))

	// Invitations.
	r.Get("/invites", serve(membersOnly((*Service).getInvites)))
	r.Post("/invites", serve(membersOnly((*Service).sendInvites)))
	r.Post("/invites/multiuse", serve(membersOnly((*Service).createInviteLink)))
	r.Post("/invites/"+inviteID+"/resend", serve(membersOnly((*Service).resendInvite)))
	r.Delete("/invites/"+inviteID, serve(membersOnly(revokeInvite(false))))
	r.Delete("/invites/multiuse/"+inviteID, serve(membersOnly(revokeInvite(true))))
	// /settings/display and /settings/notifications: the real server's deprecated aliases, from
	// before one endpoint took every setting; each takes them all.
	for _, p := range []string{"/settings", "/settings/display", "/settings/notifications"} {
		r.Patch(p, serve(humansOnly((*Service).updateSettings)))
	}

	// A user's presence, status, alert words, muted users and navigation views.
	r.Post("/users/me/presence", serve(humansOnly((*Service).updatePresence))) // 4
	r.Get("/users/"+UserIDOrEmail+"/presence", serve((*Service).getUserPresence))
	r.Get("/realm/presence", serve((*Service).getRealmPresence))
	r.Post("/users/me/status", serve(humansOnly((*Service).updateStatus)))
	t.gated(r, http.MethodGet, "/users/"+userID+"/status", levelGate{from: realm.LevelGetUserStatus}, (*Service).getStatus)
	t.gated(r, http.MethodPost, "/users/"+userID+"/status", levelGate{from: realm.LevelStatusOfOthers}, adminOnly((*Service).updateStatusOf))
	r.Get("/users/me/alert_words", serve((*Service).getAlertWords))
	r.Post("/users/me/alert_words", serve((*Service).addAlertWords))
	r.Delete("/users/me/alert_words", serve((*Service).removeAlertWords))
	r.Post("/users/me/muted_users/{muted_user_id:[0-9]+}", serve((*Service).muteUser))
	r.Delete("/users/me/muted_users/{muted_user_id:[0-9]+}", serve((*Service).unmuteUser))
	viewPath := "/navigation_views/*" // a fragment holds slashes (viewFragment)
	t.gated(r, http.MethodGet, "/navigation_views", levelGate{from: realm.LevelNavigationViews}, (*Service).getNavigationViews)
	t.gated(r, http.MethodPost, "/navigation_views", levelGate{from: realm.LevelNavigationViews}, (*Service).addNavigationView)
	t.gated(r, http.MethodPatch, viewPath, levelGate{from: realm.LevelNavigationViews}, (*Service).updateNavigationView)
	t.gated(r, http.MethodDelete, viewPath, levelGate{from: realm.LevelNavigationViews}, (*Service).removeNavigationView)

	// User groups.
	r.Get("/user_groups", serve(membersOnly((*Service).getGroups)))
	r.Post("/user_groups/create", serve((*Service).createGroup))
	r.Patch("/user_groups/"+userGroupID, serve(membersOnly((*Service).updateGroup)))
	t.gated(r, http.MethodDelete, "/user_groups/"+userGroupID, levelGate{until: realm.LevelGroupDeletionRemoved}, (*Service).deleteGroup)
	t.gated(r, http.MethodPost, "/user_groups/"+userGroupID+"/deactivate", levelGate{from: realm.LevelGroupDeactivation}, (*Service).deactivateGroup)
	t.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/members", levelGate{from: realm.LevelGroupRoutes}, membersOnly((*Service).getGroupMembers))
	r.Post("/user_groups/"+userGroupID+"/members", serve(membersOnly((*Service).updateGroupMembers)))
	t.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/members/"+userID, levelGate{from: realm.LevelGroupRoutes}, membersOnly((*Service).isGroupMember)) // 16
	t.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/subgroups", levelGate{from: realm.LevelGroupRoutes}, membersOnly((*Service).getGroupSubgroups))
	t.gated(r, http.MethodPost, "/user_groups/"+userGroupID+"/subgroups", levelGate{from: realm.LevelGroupRoutes}, membersOnly((*Service).updateGroupSubgroups))

	// The realm: settings, emoji, linkifiers, code playgrounds, custom profile fields, exports.
	r.Patch("/realm", serve(adminOnly((*Service).updateRealm)))
	t.gated(r, http.MethodPatch, "/realm/user_settings_defaults", levelGate{from: realm.LevelRealmUserDefaults}, adminOnly((*Service).updateUserSettingsDefaults))
	t.gated(r, http.MethodPost, "/realm/test_welcome_bot_custom_message", levelGate{from: realm.LevelWelcomeBotTest}, adminOnly((*Service).testWelcomeBotCustomMessage))
	r.Get("/realm/emoji", serve((*Service).getRealmEmoji))
	r.Post("/realm/emoji/{emoji_name}", serve(membersOnly((*Service).addCustomEmoji)))
	r.Delete("/realm/emoji/{emoji_name}", serve((*Service).removeCustomEmoji))
	r.Get("/realm/linkifiers", serve((*Service).getLinkifiers)) // 17
	t.gated(r, http.MethodPatch, "/realm/linkifiers", levelGate{from: realm.LevelLinkifierReorder}, adminOnly((*Service).reorderLinkifiers))
	r.Post("/realm/filters", serve(adminOnly((*Service).addLinkifier)))
	r.Patch("/realm/filters/"+filterID, serve(adminOnly((*Service).updateLinkifier)))
	r.Delete("/realm/filters/"+filterID, serve(adminOnly((*Service).removeLinkifier)))
	r.Post("/realm/playgrounds", serve(adminOnly((*Service).addPlayground))) // 14
	r.Delete("/realm/playgrounds/"+playgroundI, serve(adminOnly((*Service).removePlayground)))
	r.Get("/realm/profile_fields", serve((*Service).getProfileFields))
	r.Post("/realm/profile_fields", serve(adminOnly((*Service).addProfileField)))
	r.Patch("/realm/profile_fields", serve(adminOnly((*Service).reorderProfileFields)))
	r.Patch("/realm/profile_fields/"+profileFieldID, serve(adminOnly((*Service).updateProfileField)))
	r.Delete("/realm/profile_fields/"+profileFieldID, serve(adminOnly((*Service).removeProfileField)))
	r.Get("/export/realm", serve(adminOnly((*Service).getExports)))
	r.Post("/export/realm", serve(adminOnly((*Service).exportRealm)))
	t.gated(r, http.MethodGet, "/export/realm/consents", levelGate{from: realm.LevelExportConsents}, adminOnly((*Service).getExportConsents))

	// Uploads and attachments.
	r.Post("/user_uploads", serve((*Service).uploadFile))
	r.Get("/user_uploads/*", serve((*Service).fileURL))
	r.Get("/attachments", serve((*Service).getAttachments))
	r.Delete("/attachments/"+attachmentID, serve((*Service).removeAttachment)) // 18

	// Integrations: bot storage, push devices and tests, video calls.
	r.Get("/bot_storage", serve(botsOnly((*Service).getBotStorage)))
	r.Put("/bot_storage", serve(botsOnly((*Service).putBotStorage)))
	r.Delete("/bot_storage", serve(botsOnly((*Service).removeBotStorage)))                                                                        // 20
	t.gated(r, http.MethodPost, "/mobile_push/register", levelGate{from: realm.LevelPushRegistration}, humansOnly((*Service).registerPushDevice)) // 7
	t.gated(r, http.MethodPost, "/register_client_device", levelGate{from: realm.LevelPushRedesign}, (*Service).registerClientDevice)
	r.Post("/users/me/apns_device_token", serve(humansOnly((*Service).addAPNsToken)))
	r.Delete("/users/me/apns_device_token", serve(humansOnly((*Service).removeAPNsToken)))
	r.Post("/users/me/android_gcm_reg_id", serve(humansOnly((*Service).addFCMToken)))
	r.Delete("/users/me/android_gcm_reg_id", serve(humansOnly((*Service).removeFCMToken)))
	t.gated(r, http.MethodPost, "/remove_client_device", levelGate{from: realm.LevelRemoveClientDevice}, (*Service).removeClientDevice)
	t.gated(r, http.MethodPost, "/mobile_push/test_notification", levelGate{from: realm.LevelTestNotification}, humansOnly((*Service).testNotification))
	t.gated(r, http.MethodPost, "/mobile_push/e2ee/test_notification", levelGate{from: realm.LevelE2EETestNotification}, humansOnly((*Service).e2eeTestNotification))
	r.Post("/calls/vcall/create", serve((*Service).createVideoCall)) // 21
	r.Get("/calls/bigbluebutton/create", serve((*Service).createBigBlueButtonCall))
	t.gated(r, http.MethodPost, "/calls/constructorgroups/create", levelGate{from: realm.LevelConstructorGroups}, (*Service).createConstructorGroupsCall)
	t.gated(r, http.MethodPost, "/calls/nextcloud_talk/create", levelGate{from: realm.LevelNextcloudTalk}, (*Service).createNextcloudTalkCall)
}

// FileRoutes adds the routes outside the API that serve what the API's URLs point at:
// uploaded files (with the API's credentials, or a temporary URL's token), avatars and the
// realm icon. Every reply of theirs, errors included, carries fileReplyHeaders.
func FileRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(fileReplyHeaders)
		r.Get("/user_uploads/temporary/{token}/{name}", serveFile((*Service).serveTemporaryUpload))
		r.Get("/user_uploads/*", serveFile((*Service).serveUpload))
		r.Get("/avatar/"+UserIDOrEmail, serveFile((*Service).serveAvatar))
		r.Get("/avatar/"+UserIDOrEmail+"/medium", serveFile((*Service).serveAvatar))
		r.Get(realmIconPath, serveFile((*Service).serveRealmIcon))
		r.Get(realm.ExportPathPrefix+"*", serveFile((*Service).serveExport))
		r.Get("/user_avatars/{realm_id:[0-9]+}/emoji/images/*", serveFile((*Service).serveEmojiImage))
	})
}
