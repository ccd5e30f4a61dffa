package realm

// The groups' part of the POST /register state.

// register adds realm_user_groups: deactivated groups only for clients that know them
// (include_deactivated_groups).
func (s *GroupState) register(r RegisterRequest, f map[string]any) {
	if r.want("realm_user_groups") {
		f["realm_user_groups"] = s.Groups(r.IncludeDeactivatedGroups)
	}
}
