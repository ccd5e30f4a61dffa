package fakeserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// personalRoutes adds the routes of a user's own alert words, status, muted users, drafts,
// saved snippets and scheduled messages, and read receipts (which muting filters).
func (s *Server) personalRoutes(r chi.Router) {
	r.Get("/users/me/alert_words", serve(s.getAlertWords))
	r.Post("/users/me/alert_words", serve(s.addAlertWords))
	r.Delete("/users/me/alert_words", serve(s.removeAlertWords))
	r.Post("/users/me/status", serve(humansOnly(s.updateStatus)))
	s.gated(r, http.MethodGet, "/users/"+userID+"/status", levelGate{from: realm.LevelGetUserStatus}, s.getStatus)
	s.gated(r, http.MethodPost, "/users/"+userID+"/status", levelGate{from: realm.LevelStatusOfOthers}, adminOnly(s.updateStatusOf))
	r.Post("/users/me/muted_users/{muted_user_id:[0-9]+}", serve(s.muteUser))
	r.Delete("/users/me/muted_users/{muted_user_id:[0-9]+}", serve(s.unmuteUser))
	s.gated(r, http.MethodGet, "/messages/"+messageID+"/read_receipts", levelGate{from: realm.LevelReadReceipts}, s.getReadReceipts)
	scheduledID := "/scheduled_messages/{scheduled_message_id:[0-9]+}"
	s.gated(r, http.MethodGet, "/scheduled_messages", levelGate{from: realm.LevelScheduledMessages}, s.getScheduledMessages)
	s.gated(r, http.MethodPost, "/scheduled_messages", levelGate{from: realm.LevelScheduleMessages}, s.createScheduledMessage)
	s.gated(r, http.MethodPatch, scheduledID, levelGate{from: realm.LevelEditScheduledMessages}, s.editScheduledMessage)
	s.gated(r, http.MethodDelete, scheduledID, levelGate{from: realm.LevelScheduledMessages}, s.deleteScheduledMessage)
	snippetID := "/saved_snippets/{saved_snippet_id:[0-9]+}"
	s.gated(r, http.MethodGet, "/saved_snippets", levelGate{from: realm.LevelSavedSnippets}, s.getSavedSnippets)
	s.gated(r, http.MethodPost, "/saved_snippets", levelGate{from: realm.LevelSavedSnippets}, s.createSavedSnippet)
	s.gated(r, http.MethodPatch, snippetID, levelGate{from: realm.LevelEditSavedSnippets}, s.editSavedSnippet)
	s.gated(r, http.MethodDelete, snippetID, levelGate{from: realm.LevelSavedSnippets}, s.deleteSavedSnippet)
	r.Get("/drafts", serve(s.getDrafts))
	r.Post("/drafts", serve(s.createDrafts))
	r.Patch("/drafts/{draft_id:[0-9]+}", serve(s.editDraft))
	r.Delete("/drafts/{draft_id:[0-9]+}", serve(s.deleteDraft))
}

// personalRegisterState adds this area's state to a POST /register response.
func (s *Server) personalRegisterState(st *registerState) {
	uid, f := st.c.user.ID, st.f
	if st.want("alert_words") {
		f["alert_words"] = s.realm().AlertWords(uid)
	}
	if st.want("user_status") {
		f["user_status"] = s.realm().Statuses()
	}
	if st.want("muted_users") {
		f["muted_users"] = s.realm().MutedUsers(uid)
	}
	if st.want("drafts") {
		f["drafts"] = s.realm().Drafts(uid)
	}
	if st.want("saved_snippets") && s.realm().AtLeast(realm.LevelSavedSnippets) {
		f["saved_snippets"] = s.realm().SavedSnippets(uid)
	}
	if st.want("scheduled_messages") && s.realm().AtLeast(realm.LevelScheduleMessages) {
		f["scheduled_messages"] = s.realm().ScheduledMessages(uid)
	}
}
