package api

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/handler"
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
func (s *Service) PublicRoutes(r chi.Router) {
	r.Get("/server_settings", handler.Serve(s.serverSettings))
	r.Post("/fetch_api_key", handler.Serve(s.fetchAPIKey))
	r.Post("/dev_fetch_api_key", handler.Serve(s.devFetchAPIKey))
	s.gated(r, http.MethodPost, "/jwt/fetch_api_key", levelGate{from: realm.LevelJWT}, s.jwtFetchAPIKey) // 9
}

// Routes adds the API's authenticated routes.
func (s *Service) Routes(r chi.Router) {
	// Register and the event queue (the state register returns: register.go).
	r.Post("/register", handler.Serve(s.register))
	r.Get("/events", handler.Serve(s.getEvents))
	r.Delete("/events", handler.Serve(s.deleteEvents))

	// Messages.
	r.Get("/messages", handler.Serve(s.getMessages))
	r.Post("/messages", handler.ServeTyped(s.sendMessage))
	r.Get("/messages/"+messageID, handler.ServeTyped(s.getMessage)) // 6
	r.Patch("/messages/"+messageID, handler.Serve(s.updateMessage)) // 1
	r.Delete("/messages/"+messageID, handler.Serve(s.deleteMessage))
	r.Get("/messages/"+messageID+"/history", handler.Serve(s.getMessageHistory))
	r.Post("/messages/render", handler.Serve(s.renderMessage))
	r.Get("/messages/matches_narrow", handler.Serve(s.matchesNarrow))                                                        // 5
	s.gated(r, http.MethodPost, "/messages/"+messageID+"/typing", levelGate{from: realm.LevelEditTypingRoute}, s.editTyping) // 13
	s.gated(r, http.MethodPost, "/message_edit_typing", levelGate{from: realm.LevelEditTyping, until: realm.LevelEditTypingRoute}, s.editTypingLegacy)
	r.Post("/typing", handler.Serve(s.setTyping))
	r.Post("/messages/"+messageID+"/reactions", handler.Serve(s.addReaction))
	r.Delete("/messages/"+messageID+"/reactions", handler.Serve(s.removeReaction))
	r.Post("/submessage", handler.Serve(s.addSubmessage))
	s.gated(r, http.MethodGet, "/messages/"+messageID+"/read_receipts", levelGate{from: realm.LevelReadReceipts}, s.getReadReceipts)
	s.gated(r, http.MethodPost, "/messages/"+messageID+"/report", levelGate{from: realm.LevelMessageReport}, s.reportMessage)

	// Message flags and read marking.
	r.Post("/messages/flags", handler.Serve(s.updateFlags))
	s.gated(r, http.MethodPost, "/messages/flags/narrow", levelGate{from: realm.LevelFlagsForNarrow}, s.updateFlagsForNarrow)
	r.Post("/mark_all_as_read", handler.Serve(s.markAllAsRead)) // 19
	r.Post("/mark_stream_as_read", handler.Serve(s.markStreamAsRead))
	r.Post("/mark_topic_as_read", handler.Serve(s.markTopicAsRead))

	// Scheduled messages, reminders, drafts and saved snippets.
	scheduledID := "/scheduled_messages/{scheduled_message_id:[0-9]+}"
	s.gated(r, http.MethodGet, "/scheduled_messages", levelGate{from: realm.LevelScheduledMessages}, s.getScheduledMessages)
	s.gated(r, http.MethodPost, "/scheduled_messages", levelGate{from: realm.LevelScheduleMessages}, s.createScheduledMessage)
	s.gated(r, http.MethodPatch, scheduledID, levelGate{from: realm.LevelEditScheduledMessages}, s.editScheduledMessage)
	s.gated(r, http.MethodDelete, scheduledID, levelGate{from: realm.LevelScheduledMessages}, s.deleteScheduledMessage)
	s.gated(r, http.MethodPost, "/reminders", levelGate{from: realm.LevelReminders}, s.createReminder) // 15
	s.gated(r, http.MethodGet, "/reminders", levelGate{from: realm.LevelReminderList}, s.getReminders)
	s.gated(r, http.MethodDelete, "/reminders/"+reminderID, levelGate{from: realm.LevelReminderList}, s.deleteReminder)
	r.Get("/drafts", handler.Serve(s.getDrafts))
	r.Post("/drafts", handler.Serve(s.createDrafts))
	r.Patch("/drafts/{draft_id:[0-9]+}", handler.Serve(s.editDraft))
	r.Delete("/drafts/{draft_id:[0-9]+}", handler.Serve(s.deleteDraft))
	snippetID := "/saved_snippets/{saved_snippet_id:[0-9]+}"
	s.gated(r, http.MethodGet, "/saved_snippets", levelGate{from: realm.LevelSavedSnippets}, s.getSavedSnippets)
	s.gated(r, http.MethodPost, "/saved_snippets", levelGate{from: realm.LevelSavedSnippets}, s.createSavedSnippet)
	s.gated(r, http.MethodPatch, snippetID, levelGate{from: realm.LevelEditSavedSnippets}, s.editSavedSnippet)
	s.gated(r, http.MethodDelete, snippetID, levelGate{from: realm.LevelSavedSnippets}, s.deleteSavedSnippet)

	// Channels (streams) and their topics.
	r.Get("/streams", handler.Serve(s.getChannels))
	s.gated(r, http.MethodPost, "/channels/create", levelGate{from: realm.LevelCreateChannelRoute}, s.createChannel)
	s.gated(r, http.MethodGet, "/streams/"+streamID, levelGate{from: realm.LevelChannelByID}, s.getChannel)
	r.Patch("/streams/"+streamID, handler.Serve(s.updateChannel))
	r.Delete("/streams/"+streamID, handler.Serve(s.archiveChannel))
	r.Get("/get_stream_id", handler.Serve(s.getStreamID))
	r.Post("/default_streams", handler.Serve(adminOnly(s.addDefaultChannel)))
	r.Delete("/default_streams", handler.Serve(adminOnly(s.removeDefaultChannel)))
	s.gated(r, http.MethodGet, "/streams/"+streamID+"/members", levelGate{from: realm.LevelChannelMembers}, s.getChannelMembers)
	s.gated(r, http.MethodGet, "/streams/"+streamID+"/email_address", levelGate{from: realm.LevelChannelEmailAddress}, s.getChannelEmailAddress)
	r.Get("/users/me/"+streamID+"/topics", handler.Serve(s.getTopics))                    // 12
	r.Post("/streams/"+streamID+"/delete_topic", handler.Serve(adminOnly(s.deleteTopic))) // 8
	r.Patch("/users/me/subscriptions/muted_topics", handler.Serve(s.muteTopic))           // 3
	s.gated(r, http.MethodPost, "/user_topics", levelGate{from: realm.LevelUserTopics}, s.updateUserTopic)

	// Channel folders.
	folderID := "/channel_folders/{channel_folder_id:[0-9]+}"
	s.gated(r, http.MethodPost, "/channel_folders/create", levelGate{from: realm.LevelChannelFolders}, adminOnly(s.createChannelFolder))
	s.gated(r, http.MethodGet, "/channel_folders", levelGate{from: realm.LevelChannelFolders}, s.getChannelFolders)
	s.gated(r, http.MethodPatch, "/channel_folders", levelGate{from: realm.LevelChannelFolderOrder}, adminOnly(s.reorderChannelFolders))
	s.gated(r, http.MethodPatch, folderID, levelGate{from: realm.LevelChannelFolders}, adminOnly(s.updateChannelFolder))

	// Subscriptions.
	r.Get("/users/me/subscriptions", handler.Serve(s.getSubscriptions))
	r.Post("/users/me/subscriptions", handler.Serve(s.subscribe))
	r.Delete("/users/me/subscriptions", handler.Serve(s.unsubscribe))
	r.Patch("/users/me/subscriptions", handler.Serve(s.updateSubscriptions))
	r.Patch("/users/me/subscriptions/"+streamID, handler.Serve(s.updateSubscription)) // 10
	r.Post("/users/me/subscriptions/properties", handler.Serve(s.updateSubscriptionProperties))
	r.Get("/users/"+userID+"/subscriptions/"+streamID, handler.Serve(s.getSubscriptionStatus))
	s.gated(r, http.MethodGet, "/users/"+userID+"/channels", levelGate{from: realm.LevelUserChannels}, s.getUserChannels)

	// Users and bots.
	r.Get("/users", handler.Serve(s.getUsers))
	r.Post("/users", handler.Serve(adminOnly(s.createUser))) // 11
	r.Get("/users/me", handler.ServeTyped(s.getOwnUser))
	r.Delete("/users/me", handler.Serve(s.deactivateSelf))
	r.Get("/users/"+userID, handler.Serve(s.getUser))
	r.Patch("/users/"+userID, handler.Serve(s.updateUser))
	r.Delete("/users/"+userID, handler.Serve(adminOnly(s.deactivateUser)))
	r.Post("/users/"+userID+"/reactivate", handler.Serve(adminOnly(s.reactivateUser)))
	r.Get("/users/"+UserEmail, handler.Serve(s.getUserByEmail))
	s.gated(r, http.MethodPatch, "/users/"+UserEmail, levelGate{from: realm.LevelUpdateUserByEmail}, s.updateUserByEmail) // 2
	r.Post("/bots", handler.Serve(humansOnly(s.createBot)))
	r.Delete("/bots/"+botID, handler.Serve(s.deactivateBot))
	r.Patch("/bots/"+botID, handler.Serve(membersOnly(s.updateBot)))
	r.Post("/users/me/api_key/regenerate", handler.Serve(humansOnly(s.regenerateAPIKey)))
	s.gated(r, http.MethodGet, "/bots/"+botID+"/api_key", levelGate{from: realm.LevelBotAPIKeyRoute}, membersOnly(s.botAPIKey((*realm.State).BotAPIKey)))
	r.Post("/bots/"+botID+"/api_key/regenerate", handler.Serve(membersOnly(s.botAPIKey((*realm.State).RegenerateBotAPIKey))))

	// Invitations.
	r.Get("/invites", handler.Serve(membersOnly(s.getInvites)))
	r.Post("/invites", handler.Serve(membersOnly(s.sendInvites)))
	r.Post("/invites/multiuse", handler.Serve(membersOnly(s.createInviteLink)))
	r.Post("/invites/"+inviteID+"/resend", handler.Serve(membersOnly(s.resendInvite)))
	r.Delete("/invites/"+inviteID, handler.Serve(membersOnly(s.revokeInvite(false))))
	r.Delete("/invites/multiuse/"+inviteID, handler.Serve(membersOnly(s.revokeInvite(true))))
	// /settings/display and /settings/notifications: the real server's deprecated aliases, from
	// before one endpoint took every setting; each takes them all.
	for _, p := range []string{"/settings", "/settings/display", "/settings/notifications"} {
		r.Patch(p, handler.Serve(humansOnly(s.updateSettings)))
	}

	// A user's presence, status, alert words, muted users and navigation views.
	r.Post("/users/me/presence", handler.Serve(humansOnly(s.updatePresence))) // 4
	r.Get("/users/"+UserIDOrEmail+"/presence", handler.Serve(s.getUserPresence))
	r.Get("/realm/presence", handler.Serve(s.getRealmPresence))
	r.Post("/users/me/status", handler.Serve(humansOnly(s.updateStatus)))
	s.gated(r, http.MethodGet, "/users/"+userID+"/status", levelGate{from: realm.LevelGetUserStatus}, s.getStatus)
	s.gated(r, http.MethodPost, "/users/"+userID+"/status", levelGate{from: realm.LevelStatusOfOthers}, adminOnly(s.updateStatusOf))
	r.Get("/users/me/alert_words", handler.Serve(s.getAlertWords))
	r.Post("/users/me/alert_words", handler.Serve(s.addAlertWords))
	r.Delete("/users/me/alert_words", handler.Serve(s.removeAlertWords))
	r.Post("/users/me/muted_users/{muted_user_id:[0-9]+}", handler.Serve(s.muteUser))
	r.Delete("/users/me/muted_users/{muted_user_id:[0-9]+}", handler.Serve(s.unmuteUser))
	viewPath := "/navigation_views/*" // a fragment holds slashes (viewFragment)
	s.gated(r, http.MethodGet, "/navigation_views", levelGate{from: realm.LevelNavigationViews}, s.getNavigationViews)
	s.gated(r, http.MethodPost, "/navigation_views", levelGate{from: realm.LevelNavigationViews}, s.addNavigationView)
	s.gated(r, http.MethodPatch, viewPath, levelGate{from: realm.LevelNavigationViews}, s.updateNavigationView)
	s.gated(r, http.MethodDelete, viewPath, levelGate{from: realm.LevelNavigationViews}, s.removeNavigationView)

	// User groups.
	r.Get("/user_groups", handler.Serve(membersOnly(s.getGroups)))
	r.Post("/user_groups/create", handler.Serve(s.createGroup))
	r.Patch("/user_groups/"+userGroupID, handler.Serve(membersOnly(s.updateGroup)))
	s.gated(r, http.MethodDelete, "/user_groups/"+userGroupID, levelGate{until: realm.LevelGroupDeletionRemoved}, s.deleteGroup)
	s.gated(r, http.MethodPost, "/user_groups/"+userGroupID+"/deactivate", levelGate{from: realm.LevelGroupDeactivation}, s.deactivateGroup)
	s.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/members", levelGate{from: realm.LevelGroupRoutes}, membersOnly(s.getGroupMembers))
	r.Post("/user_groups/"+userGroupID+"/members", handler.Serve(membersOnly(s.updateGroupMembers)))
	s.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/members/"+userID, levelGate{from: realm.LevelGroupRoutes}, membersOnly(s.isGroupMember)) // 16
	s.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/subgroups", levelGate{from: realm.LevelGroupRoutes}, membersOnly(s.getGroupSubgroups))
	s.gated(r, http.MethodPost, "/user_groups/"+userGroupID+"/subgroups", levelGate{from: realm.LevelGroupRoutes}, membersOnly(s.updateGroupSubgroups))

	// The realm: settings, emoji, linkifiers, code playgrounds, custom profile fields, exports.
	r.Patch("/realm", handler.Serve(adminOnly(s.updateRealm)))
	s.gated(r, http.MethodPatch, "/realm/user_settings_defaults", levelGate{from: realm.LevelRealmUserDefaults}, adminOnly(s.updateUserSettingsDefaults))
	s.gated(r, http.MethodPost, "/realm/test_welcome_bot_custom_message", levelGate{from: realm.LevelWelcomeBotTest}, adminOnly(s.testWelcomeBotCustomMessage))
	r.Get("/realm/emoji", handler.Serve(s.getRealmEmoji))
	r.Post("/realm/emoji/{emoji_name}", handler.Serve(membersOnly(s.addCustomEmoji)))
	r.Delete("/realm/emoji/{emoji_name}", handler.Serve(s.removeCustomEmoji))
	r.Get("/realm/linkifiers", handler.Serve(s.getLinkifiers)) // 17
	s.gated(r, http.MethodPatch, "/realm/linkifiers", levelGate{from: realm.LevelLinkifierReorder}, adminOnly(s.reorderLinkifiers))
	r.Post("/realm/filters", handler.Serve(adminOnly(s.addLinkifier)))
	r.Patch("/realm/filters/"+filterID, handler.Serve(adminOnly(s.updateLinkifier)))
	r.Delete("/realm/filters/"+filterID, handler.Serve(adminOnly(s.removeLinkifier)))
	r.Post("/realm/playgrounds", handler.Serve(adminOnly(s.addPlayground))) // 14
	r.Delete("/realm/playgrounds/"+playgroundI, handler.Serve(adminOnly(s.removePlayground)))
	r.Get("/realm/profile_fields", handler.Serve(s.getProfileFields))
	r.Post("/realm/profile_fields", handler.Serve(adminOnly(s.addProfileField)))
	r.Patch("/realm/profile_fields", handler.Serve(adminOnly(s.reorderProfileFields)))
	r.Patch("/realm/profile_fields/"+profileFieldID, handler.Serve(adminOnly(s.updateProfileField)))
	r.Delete("/realm/profile_fields/"+profileFieldID, handler.Serve(adminOnly(s.removeProfileField)))
	r.Get("/export/realm", handler.Serve(adminOnly(s.getExports)))
	r.Post("/export/realm", handler.Serve(adminOnly(s.exportRealm)))
	s.gated(r, http.MethodGet, "/export/realm/consents", levelGate{from: realm.LevelExportConsents}, adminOnly(s.getExportConsents))

	// Uploads and attachments.
	r.Post("/user_uploads", handler.Serve(s.uploadFile))
	r.Get("/user_uploads/*", handler.Serve(s.fileURL))
	r.Get("/attachments", handler.Serve(s.getAttachments))
	r.Delete("/attachments/"+attachmentID, handler.Serve(s.removeAttachment)) // 18

	// Integrations: bot storage, push devices and tests, video calls.
	r.Get("/bot_storage", handler.Serve(s.botsOnly(s.getBotStorage)))
	r.Put("/bot_storage", handler.Serve(s.botsOnly(s.putBotStorage)))
	r.Delete("/bot_storage", handler.Serve(s.botsOnly(s.removeBotStorage)))                                                              // 20
	s.gated(r, http.MethodPost, "/mobile_push/register", levelGate{from: realm.LevelPushRegistration}, humansOnly(s.registerPushDevice)) // 7
	s.gated(r, http.MethodPost, "/register_client_device", levelGate{from: realm.LevelPushRedesign}, s.registerClientDevice)
	r.Post("/users/me/apns_device_token", handler.Serve(humansOnly(s.addAPNsToken)))
	r.Delete("/users/me/apns_device_token", handler.Serve(humansOnly(s.removeAPNsToken)))
	r.Post("/users/me/android_gcm_reg_id", handler.Serve(humansOnly(s.addFCMToken)))
	r.Delete("/users/me/android_gcm_reg_id", handler.Serve(humansOnly(s.removeFCMToken)))
	s.gated(r, http.MethodPost, "/remove_client_device", levelGate{from: realm.LevelRemoveClientDevice}, s.removeClientDevice)
	s.gated(r, http.MethodPost, "/mobile_push/test_notification", levelGate{from: realm.LevelTestNotification}, humansOnly(s.testNotification))
	s.gated(r, http.MethodPost, "/mobile_push/e2ee/test_notification", levelGate{from: realm.LevelE2EETestNotification}, humansOnly(s.e2eeTestNotification))
	r.Post("/calls/vcall/create", handler.Serve(s.createVideoCall)) // 21
	r.Get("/calls/bigbluebutton/create", handler.Serve(s.createBigBlueButtonCall))
	s.gated(r, http.MethodPost, "/calls/constructorgroups/create", levelGate{from: realm.LevelConstructorGroups}, s.createConstructorGroupsCall)
	s.gated(r, http.MethodPost, "/calls/nextcloud_talk/create", levelGate{from: realm.LevelNextcloudTalk}, s.createNextcloudTalkCall)
}

// FileRoutes adds the routes outside the API that serve what the API's URLs point at:
// uploaded files (with the API's credentials, or a temporary URL's token), avatars and the
// realm icon. Every reply of theirs, errors included, carries fileReplyHeaders.
func (s *Service) FileRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(fileReplyHeaders)
		r.Get("/user_uploads/temporary/{token}/{name}", s.serveTemporaryUpload)
		r.Get("/user_uploads/*", s.serveUpload)
		r.Get("/avatar/"+UserIDOrEmail, s.serveAvatar)
		r.Get("/avatar/"+UserIDOrEmail+"/medium", s.serveAvatar)
		r.Get(realmIconPath, s.serveRealmIcon)
		r.Get(realm.ExportPathPrefix+"*", s.serveExport)
		r.Get("/user_avatars/{realm_id:[0-9]+}/emoji/images/*", s.serveEmojiImage)
	})
}
