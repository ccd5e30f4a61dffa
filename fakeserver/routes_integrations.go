package fakeserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// Path patterns of this area's integer IDs.
const (
	attachmentID = "{attachment_id:[0-9]+}"
	reminderID   = "{reminder_id:[0-9]+}"
)

// integrationRoutes adds the authenticated routes of uploads and attachments, reminders, bot
// storage, push devices, video calls and linkifier editing.
func (s *Server) integrationRoutes(r chi.Router) {
	// Documented operations, by their number in the API document.
	s.gated(r, http.MethodPost, "/mobile_push/register", levelGate{from: realm.LevelPushRegistration}, humansOnly(s.registerPushDevice)) // 7
	s.gated(r, http.MethodPost, "/reminders", levelGate{from: realm.LevelReminders}, s.createReminder)                                   // 15
	r.Delete("/attachments/"+attachmentID, serve(s.removeAttachment))                                                                    // 18
	r.Delete("/bot_storage", serve(s.botsOnly(s.removeBotStorage)))                                                                      // 20
	r.Post("/calls/vcall/create", serve(s.createVideoCall))                                                                              // 21

	// Supporting operations of the real server.
	r.Post("/user_uploads", serve(s.uploadFile))
	r.Get("/attachments", serve(s.getAttachments))
	s.gated(r, http.MethodGet, "/reminders", levelGate{from: realm.LevelReminderList}, s.getReminders)
	s.gated(r, http.MethodDelete, "/reminders/"+reminderID, levelGate{from: realm.LevelReminderList}, s.deleteReminder)
	r.Get("/bot_storage", serve(s.botsOnly(s.getBotStorage)))
	r.Put("/bot_storage", serve(s.botsOnly(s.putBotStorage)))
	s.gated(r, http.MethodPost, "/register_client_device", levelGate{from: realm.LevelPushRedesign}, s.registerClientDevice)
	r.Post("/users/me/apns_device_token", serve(humansOnly(s.addAPNsToken)))
	r.Delete("/users/me/apns_device_token", serve(humansOnly(s.removeAPNsToken)))
	r.Post("/users/me/android_gcm_reg_id", serve(humansOnly(s.addFCMToken)))
	r.Delete("/users/me/android_gcm_reg_id", serve(humansOnly(s.removeFCMToken)))
	s.gated(r, http.MethodPatch, "/realm/linkifiers", levelGate{from: realm.LevelLinkifierReorder}, adminOnly(s.reorderLinkifiers))
	r.Patch("/realm/filters/"+filterID, serve(adminOnly(s.updateLinkifier)))
}

// integrationRegisterState adds this area's state to a POST /register response.
func (s *Server) integrationRegisterState(st *registerState) {
	c, fetch, f := st.c, st.want, st.f
	if fetch("reminders") && s.realm().AtLeast(realm.LevelReminderList) {
		f["reminders"] = s.realm().Reminders(c.user.ID)
	}
	if fetch("device") && s.realm().AtLeast(realm.LevelPushRedesign) {
		f["devices"] = s.realm().Devices(c.user.ID)
	}
	if fetch("push_device") && s.realm().AtLeast(realm.LevelPushRegistration) && !s.realm().AtLeast(realm.LevelPushRedesign) {
		f["push_devices"] = s.realm().PushAccounts(c.user.ID)
	}
}
