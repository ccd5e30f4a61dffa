package fakeserver

import (
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/go-chi/chi/v5"
)

// Path patterns of this area's integer IDs.
const (
	userGroupID    = "{user_group_id:[0-9]+}"
	profileFieldID = "{field_id:[0-9]+}"
	// userEmail is an email address in a path: a segment with an @, so that numeric user IDs
	// and words such as "me" keep their own routes.
	userEmail = "{email:[^/]*(?:@|%40)[^/]*}"
)

// accountRoutes adds the authenticated routes of users, roles, groups, JWT authentication, custom profile fields.
func (s *Server) accountRoutes(r chi.Router) {
	// Documented operations.
	s.gated(r, http.MethodPatch, "/users/"+userEmail, levelGate{from: realm.LevelUpdateUserByEmail}, s.updateUserByEmail)                             // 2
	s.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/members/"+userID, levelGate{from: realm.LevelGroupRoutes}, membersOnly(s.isGroupMember)) // 16

	// Supporting operations of the real server: users by email, deactivation, user groups
	// and custom profile fields.
	r.Get("/users/"+userEmail, serve(s.getUserByEmail))
	r.Delete("/users/"+userID, serve(adminOnly(s.deactivateUser)))
	r.Delete("/users/me", serve(s.deactivateSelf))
	r.Delete("/bots/{bot_id:[0-9]+}", serve(s.deactivateBot))
	r.Get("/user_groups", serve(membersOnly(s.getGroups)))
	r.Post("/user_groups/create", serve(s.createGroup))
	s.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/members", levelGate{from: realm.LevelGroupRoutes}, membersOnly(s.getGroupMembers))
	r.Post("/user_groups/"+userGroupID+"/members", serve(membersOnly(s.updateGroupMembers)))
	s.gated(r, http.MethodPost, "/user_groups/"+userGroupID+"/subgroups", levelGate{from: realm.LevelGroupRoutes}, membersOnly(s.updateGroupSubgroups))
	s.gated(r, http.MethodGet, "/user_groups/"+userGroupID+"/subgroups", levelGate{from: realm.LevelGroupRoutes}, membersOnly(s.getGroupSubgroups))
	s.gated(r, http.MethodPost, "/user_groups/"+userGroupID+"/deactivate", levelGate{from: realm.LevelGroupDeactivation}, s.deactivateGroup)
	s.gated(r, http.MethodDelete, "/user_groups/"+userGroupID, levelGate{until: realm.LevelGroupDeletionRemoved}, s.deleteGroup)
	r.Get("/realm/profile_fields", serve(s.getProfileFields))
	r.Post("/realm/profile_fields", serve(adminOnly(s.addProfileField)))
	r.Delete("/realm/profile_fields/"+profileFieldID, serve(adminOnly(s.removeProfileField)))
}

// accountRegisterState adds this area's state to a POST /register response.
func (s *Server) accountRegisterState(st *registerState) {
	fetch, f := st.want, st.f
	if fetch("custom_profile_fields") {
		f["custom_profile_fields"] = s.realm().ProfileFields()
	}
	if fetch("realm_user_groups") {
		// Deactivated groups only for clients that know them (include_deactivated_groups).
		f["realm_user_groups"] = s.realm().Groups(st.client.Can("include_deactivated_groups"))
	}
}

// publicAccountRoutes adds the account routes that take no credentials (JWT login).
func (s *Server) publicAccountRoutes(r chi.Router) {
	s.gated(r, http.MethodPost, "/jwt/fetch_api_key", levelGate{from: realm.LevelJWT}, s.jwtFetchAPIKey) // 9
}
