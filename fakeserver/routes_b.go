package fakeserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// Path patterns of this block's integer IDs.
const (
	botID    = "{bot_id:[0-9]+}"
	inviteID = "{invite_id:[0-9]+}"
)

// ---- routesB: API keys and bot settings, invitations, data exports, client devices and
// push tests, the BigBlueButton call route, the development login. ----

// routesB adds this block's authenticated routes.
func (s *Server) routesB(r chi.Router) {
	r.Post("/users/me/api_key/regenerate", serve(humansOnly(s.regenerateAPIKey)))
	s.gated(r, http.MethodGet, "/bots/"+botID+"/api_key", levelGate{from: realm.LevelBotAPIKeyRoute}, membersOnly(s.botAPIKey((*realm.State).BotAPIKey)))
	r.Post("/bots/"+botID+"/api_key/regenerate", serve(membersOnly(s.botAPIKey((*realm.State).RegenerateBotAPIKey))))
	r.Patch("/bots/"+botID, serve(membersOnly(s.updateBot)))

	r.Get("/invites", serve(membersOnly(s.getInvites)))
	r.Post("/invites", serve(membersOnly(s.sendInvites)))
	r.Post("/invites/multiuse", serve(membersOnly(s.createInviteLink)))
	r.Post("/invites/"+inviteID+"/resend", serve(membersOnly(s.resendInvite)))
	r.Delete("/invites/"+inviteID, serve(membersOnly(s.revokeInvite(false))))
	r.Delete("/invites/multiuse/"+inviteID, serve(membersOnly(s.revokeInvite(true))))

	r.Get("/export/realm", serve(adminOnly(s.getExports)))
	r.Post("/export/realm", serve(adminOnly(s.exportRealm)))
	s.gated(r, http.MethodGet, "/export/realm/consents", levelGate{from: realm.LevelExportConsents}, adminOnly(s.getExportConsents))

	s.gated(r, http.MethodPost, "/remove_client_device", levelGate{from: realm.LevelRemoveClientDevice}, s.removeClientDevice)
	s.gated(r, http.MethodPost, "/mobile_push/test_notification", levelGate{from: realm.LevelTestNotification}, humansOnly(s.testNotification))
	s.gated(r, http.MethodPost, "/mobile_push/e2ee/test_notification", levelGate{from: realm.LevelE2EETestNotification}, humansOnly(s.e2eeTestNotification))
	r.Get("/calls/bigbluebutton/create", serve(s.createBigBlueButtonCall))
}

// publicRoutesB adds this block's routes that take no credentials.
func (s *Server) publicRoutesB(r chi.Router) {
	r.Post("/dev_fetch_api_key", serve(s.devFetchAPIKey))
}

// fileRoutesB adds this block's routes outside the API: export files.
func (s *Server) fileRoutesB(r chi.Router) {
	r.Get(realm.ExportPathPrefix+"*", s.serveExport)
}
