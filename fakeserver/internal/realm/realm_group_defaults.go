package realm

// The realm's permission group settings that no route of the fake changes: POST /register
// shows each, from the level that added it, with the real server's default for a new
// organization (a system group, shown by its ID). The ones PATCH /realm takes are in
// edit_settings.go.
var realmGroupDefaults = []struct {
	name, group string
	since       int
}{
	{"create_multiuse_invite_group", "role:administrators", 209},
	{"can_access_all_users_group", "role:everyone", 225},
	{"can_create_public_channel_group", "role:members", 264},
	{"can_create_private_channel_group", "role:members", 266},
	{"direct_message_initiator_group", "role:everyone", 270},
	{"direct_message_permission_group", "role:everyone", 270},
	{"can_create_web_public_channel_group", "role:owners", 280},
	{"can_delete_any_message_group", "role:administrators", 281},
	{"can_delete_own_message_group", "role:everyone", 291},
	{"can_create_groups", "role:members", 299},
	{"can_manage_all_groups", "role:owners", 299},
	{"can_add_custom_emoji_group", "role:members", 307},
	{"can_invite_users_group", "role:members", 321},
	{"can_add_subscribers_group", "role:members", 341},
	{"can_create_bots_group", "role:members", 344},
	{"can_create_write_only_bots_group", "role:members", 344},
	{"can_summarize_topics_group", "role:everyone", 350},
	{"can_manage_billing_group", "role:administrators", LevelBillingGroup},
	{"can_set_topics_policy_group", "role:members", LevelChannelTopicsPolicy},
	{"can_set_delete_message_policy_group", "role:moderators", LevelChannelDeleteGroups},
}

// RealmGroupDefaults is register's realm_<setting> of each of those settings at the
// realm's level.
func (s *State) RealmGroupDefaults() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string]any{}
	for _, d := range realmGroupDefaults {
		if s.atLeast(d.since) {
			out["realm_"+d.name] = s.systemGroupID(d.group)
		}
	}
	return out
}
