package fakeserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// messagingRoutes adds the authenticated routes of message editing and moving, topic muting,
// narrows, read marking, typing and reactions.
func (s *Server) messagingRoutes(r chi.Router) {
	// Documented operations, by their number in the API document.
	r.Patch("/messages/"+messageID, serve(s.updateMessage))                                                                  // 1
	r.Patch("/users/me/subscriptions/muted_topics", serve(s.muteTopic))                                                      // 3
	r.Get("/messages/matches_narrow", serve(s.matchesNarrow))                                                                // 5
	s.gated(r, http.MethodPost, "/messages/"+messageID+"/typing", levelGate{from: realm.LevelEditTypingRoute}, s.editTyping) // 13
	s.gated(r, http.MethodPost, "/message_edit_typing", levelGate{from: realm.LevelEditTyping, until: realm.LevelEditTypingRoute}, s.editTypingLegacy)
	r.Post("/mark_all_as_read", serve(s.markAllAsRead)) // 19

	// Supporting operations of the real server.
	r.Get("/messages", serve(s.getMessages))
	r.Post("/messages/flags", serve(s.updateFlags))
	r.Post("/messages/"+messageID+"/reactions", serve(s.addReaction))
	r.Post("/submessage", serve(s.addSubmessage))
}

// messagingRegisterState adds this area's state to a POST /register response.
func (s *Server) messagingRegisterState(st *registerState) {
	c, fetch, f := st.c, st.want, st.f
	userTopics := s.realm().AtLeast(realm.LevelUserTopicState)
	if fetch("user_topic") && userTopics {
		f["user_topics"] = s.realm().UserTopics(c.user.ID)
	}
	// As on the real server, a client that names user_topic gets the legacy list only from
	// a server too old to have user_topics.
	if fetch("muted_topics") && (st.wanted == nil || !fetch("user_topic") || !userTopics) {
		f["muted_topics"] = s.realm().MutedTopics(c.user.ID)
	}
}
