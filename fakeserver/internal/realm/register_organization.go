package realm

// The organization's part of the POST /register state (the handler adds the realm settings,
// which mix in the server's configuration).

// register adds the realm's defaults for new users' settings.
func (s *OrganizationState) register(r RegisterRequest, f map[string]any) {
	if r.want("realm_user_settings_defaults") && s.AtLeast(LevelRealmUserDefaults) {
		f["realm_user_settings_defaults"] = s.RealmUserSettingsDefaults()
	}
}
