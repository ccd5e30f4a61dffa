package fakeserver

import "github.com/go-chi/chi/v5"

// clientRoutes adds the authenticated routes that real clients call around the documented
// operations (issue 10): channels, subscriptions, read marking, typing, reactions, edit
// history, rendering, presence, emoji, reactivation, group edits and uploaded files.
func (s *Server) clientRoutes(r chi.Router) {
	r.Get("/streams", serve(s.getChannels))
	r.Get("/streams/"+streamID, serve(s.getChannel))
	r.Delete("/users/me/subscriptions", serve(s.unsubscribe))
	r.Post("/users/me/subscriptions/properties", serve(s.updateSubscriptionProperties))
	r.Delete("/messages/"+messageID+"/reactions", serve(s.removeReaction))
	r.Post("/typing", serve(s.setTyping))
	r.Get("/messages/"+messageID+"/history", serve(s.getMessageHistory))
	r.Post("/messages/render", serve(s.renderMessage))
	r.Post("/mark_stream_as_read", serve(s.markStreamAsRead))
	r.Post("/mark_topic_as_read", serve(s.markTopicAsRead))
}
