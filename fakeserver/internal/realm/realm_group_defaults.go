package realm

// The realm's permission group settings that only PATCH /realm and register read (the ones
// other routes act on are in edit_settings.go): each from the level that added it, with the
// real server's default for a new organization (a system group, shown by its ID), whether it
// may be "role:everyone", the system groups it may be when the real server names them, and
// whether only an owner may change it.
var realmGroupDefaults = []struct {
	name, group   string
	since         int
	allowEveryone bool
	allowed       []string
	owner         bool
}{
	{name: "create_multiuse_invite_group", group: "role:administrators", since: 209, owner: true},
	{name: "can_access_all_users_group", group: "role:everyone", since: 225, allowEveryone: true, allowed: []string{"role:everyone", "role:members"}},
	{name: "can_create_public_channel_group", group: "role:members", since: 264},
	{name: "can_create_private_channel_group", group: "role:members", since: 266},
	{name: "direct_message_initiator_group", group: "role:everyone", since: 270, allowEveryone: true},
	{name: "direct_message_permission_group", group: "role:everyone", since: 270, allowEveryone: true},
	{name: "can_create_web_public_channel_group", group: "role:owners", since: 280,
		allowed: []string{"role:moderators", "role:administrators", "role:owners", "role:nobody"}},
	{name: "can_delete_any_message_group", group: "role:administrators", since: 281},
	{name: "can_delete_own_message_group", group: "role:everyone", since: 291, allowEveryone: true},
	{name: "can_create_groups", group: "role:members", since: 299, owner: true},
	{name: "can_manage_all_groups", group: "role:owners", since: 299, owner: true},
	{name: "can_add_custom_emoji_group", group: "role:members", since: 307},
	{name: "can_invite_users_group", group: "role:members", since: 321, owner: true},
	{name: "can_add_subscribers_group", group: "role:members", since: 341},
	{name: "can_create_bots_group", group: "role:members", since: 344},
	{name: "can_create_write_only_bots_group", group: "role:members", since: 344},
	{name: "can_summarize_topics_group", group: "role:everyone", since: 350, allowEveryone: true},
	{name: "can_manage_billing_group", group: "role:administrators", since: LevelBillingGroup, owner: true},
	{name: "can_set_topics_policy_group", group: "role:members", since: LevelChannelTopicsPolicy},
	{name: "can_set_delete_message_policy_group", group: "role:moderators", since: LevelChannelDeleteGroups},
}

// otherGroupSettingRules are those settings as group setting rules, kept in
// EditingSettings.Others.
func otherGroupSettingRules() map[string]groupSettingRule {
	rules := map[string]groupSettingRule{}
	for _, d := range realmGroupDefaults {
		name := d.name
		rules[name] = groupSettingRule{name: name, field: func(e *EditingSettings) *GroupSetting { return e.Others[name] },
			defaultGroup: d.group, allowEveryone: d.allowEveryone, since: d.since, allowed: d.allowed, owner: d.owner}
	}
	return rules
}

// newOtherGroupSettings gives every one of those settings a place of its own (in one
// allocation: a new fake makes them on every start).
func newOtherGroupSettings() map[string]*GroupSetting {
	out := make(map[string]*GroupSetting, len(realmGroupDefaults))
	places := make([]GroupSetting, len(realmGroupDefaults))
	for i, d := range realmGroupDefaults {
		out[d.name] = &places[i]
	}
	return out
}

// cloneGroupSettings copies the settings, so that a change can be built and dropped.
func cloneGroupSettings(in map[string]*GroupSetting) map[string]*GroupSetting {
	out := make(map[string]*GroupSetting, len(in))
	for name, g := range in {
		c := *g
		out[name] = &c
	}
	return out
}
