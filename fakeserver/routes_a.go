package fakeserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// routesA adds the routes of default channels, channel folders, navigation views, custom emoji,
// custom profile field edits and the one-call subscription update; routesAFiles the emoji
// images; routesARegisterState their register state.
func (s *Server) routesA(r chi.Router) {
	r.Patch("/users/me/subscriptions", serve(s.updateSubscriptions))
	r.Post("/default_streams", serve(adminOnly(s.addDefaultChannel)))
	r.Delete("/default_streams", serve(adminOnly(s.removeDefaultChannel)))
	folderID := "/channel_folders/{channel_folder_id:[0-9]+}"
	s.gated(r, http.MethodPost, "/channel_folders/create", levelGate{from: realm.LevelChannelFolders}, adminOnly(s.createChannelFolder))
	s.gated(r, http.MethodGet, "/channel_folders", levelGate{from: realm.LevelChannelFolders}, s.getChannelFolders)
	s.gated(r, http.MethodPatch, "/channel_folders", levelGate{from: realm.LevelChannelFolderOrder}, adminOnly(s.reorderChannelFolders))
	s.gated(r, http.MethodPatch, folderID, levelGate{from: realm.LevelChannelFolders}, adminOnly(s.updateChannelFolder))
	viewPath := "/navigation_views/*" // a fragment holds slashes (viewFragment)
	s.gated(r, http.MethodGet, "/navigation_views", levelGate{from: realm.LevelNavigationViews}, s.getNavigationViews)
	s.gated(r, http.MethodPost, "/navigation_views", levelGate{from: realm.LevelNavigationViews}, s.addNavigationView)
	s.gated(r, http.MethodPatch, viewPath, levelGate{from: realm.LevelNavigationViews}, s.updateNavigationView)
	s.gated(r, http.MethodDelete, viewPath, levelGate{from: realm.LevelNavigationViews}, s.removeNavigationView)
	r.Post("/realm/emoji/{emoji_name}", serve(membersOnly(s.addCustomEmoji)))
	r.Delete("/realm/emoji/{emoji_name}", serve(s.removeCustomEmoji))
	r.Patch("/realm/profile_fields", serve(adminOnly(s.reorderProfileFields)))
	r.Patch("/realm/profile_fields/"+profileFieldID, serve(adminOnly(s.updateProfileField)))
}

// routesAFiles adds the route of the custom emoji images that realm_emoji's URLs point at.
func (s *Server) routesAFiles(r chi.Router) {
	r.Get("/user_avatars/{realm_id:[0-9]+}/emoji/images/*", s.serveEmojiImage)
}

// routesARegisterState adds the state of routesA's areas to a POST /register response.
func (s *Server) routesARegisterState(st *registerState) {
	r, f := s.realm(), st.f
	if st.want("default_streams") {
		f["realm_default_streams"] = r.DefaultChannels(st.c.user.ID)
	}
	if st.want("channel_folders") && r.AtLeast(realm.LevelChannelFolders) {
		f["channel_folders"] = r.ChannelFolders(true)
	}
	if st.want("realm") && r.AtLeast(realm.LevelChannelFolderLimits) {
		f["max_channel_folder_name_length"] = realm.MaxChannelFolderNameLength
		f["max_channel_folder_description_length"] = realm.MaxChannelFolderDescriptionLength
	}
	if st.want("navigation_views") && r.AtLeast(realm.LevelNavigationViews) {
		f["navigation_views"] = r.NavigationViews(st.c.user.ID)
	}
}
