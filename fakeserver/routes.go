package fakeserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// userIDOrEmail is a user ID or an email address in a path, anything but "me", whose routes
// come first on the real server (GET /users/me/presence is a wrong method, not a lookup of "me").
const userIDOrEmail = "{user_id_or_email:(?:[^/][^/][^/]+|[^/m][^/]?|m[^/e]?)}"

// clientRoutes adds the authenticated routes that real clients call around the documented
// operations: channels, subscriptions, read marking, typing, reactions, edit
// history, rendering, presence, emoji, reactivation, group edits and uploaded files.
func (s *Server) clientRoutes(r chi.Router) {
	r.Get("/streams", serve(s.getChannels))
	s.gated(r, http.MethodGet, "/streams/"+streamID, levelGate{from: realm.LevelChannelByID}, s.getChannel)
	s.gated(r, http.MethodGet, "/streams/"+streamID+"/members", levelGate{from: realm.LevelChannelMembers}, s.getChannelMembers)
	s.gated(r, http.MethodGet, "/streams/"+streamID+"/email_address", levelGate{from: realm.LevelChannelEmailAddress}, s.getChannelEmailAddress)
	r.Get("/users/"+userID+"/subscriptions/"+streamID, serve(s.getSubscriptionStatus))
	r.Patch("/streams/"+streamID, serve(s.updateChannel))
	r.Delete("/users/me/subscriptions", serve(s.unsubscribe))
	r.Post("/users/me/subscriptions/properties", serve(s.updateSubscriptionProperties))
	r.Delete("/messages/"+messageID+"/reactions", serve(s.removeReaction))
	r.Post("/typing", serve(s.setTyping))
	r.Get("/messages/"+messageID+"/history", serve(s.getMessageHistory))
	r.Post("/messages/render", serve(s.renderMessage))
	r.Get("/users/"+userIDOrEmail+"/presence", serve(s.getUserPresence))
	r.Get("/realm/presence", serve(s.getRealmPresence))
	r.Get("/realm/emoji", serve(s.getRealmEmoji))
	r.Post("/users/"+userID+"/reactivate", serve(adminOnly(s.reactivateUser)))
	r.Patch("/user_groups/"+userGroupID, serve(membersOnly(s.updateGroup)))
	r.Get("/user_uploads/*", serve(s.fileURL))
	s.gated(r, http.MethodPost, "/user_topics", levelGate{from: realm.LevelUserTopics}, s.updateUserTopic)
	s.gated(r, http.MethodPost, "/messages/flags/narrow", levelGate{from: realm.LevelFlagsForNarrow}, s.updateFlagsForNarrow)
	r.Post("/mark_stream_as_read", serve(s.markStreamAsRead))
	r.Post("/mark_topic_as_read", serve(s.markTopicAsRead))
}

// fileRoutes adds the routes outside the API that serve what the API's URLs point at:
// uploaded files (with the API's credentials, or a temporary URL's token), avatars and the
// realm icon. Every reply of theirs, errors included, carries fileReplyHeaders.
func (s *Server) fileRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(fileReplyHeaders)
		r.Get("/user_uploads/temporary/{token}/{name}", s.serveTemporaryUpload)
		r.Get("/user_uploads/*", s.serveUpload)
		r.Get("/avatar/"+userIDOrEmail, s.serveAvatar)
		r.Get("/avatar/"+userIDOrEmail+"/medium", s.serveAvatar)
		r.Get(realmIconPath, s.serveRealmIcon)
	})
}
