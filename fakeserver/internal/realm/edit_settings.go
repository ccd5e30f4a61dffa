package realm

import (
	"maps"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// EditingSettings are the realm settings that govern editing and moving messages. A nil limit
// means unlimited.
type EditingSettings struct {
	AllowMessageEditing             bool
	MessageContentEditLimitSeconds  *int
	MoveMessagesWithinStreamLimit   *int
	MoveMessagesBetweenStreamsLimit *int
	// MessageContentDeleteLimit is how long senders may delete their own messages.
	MessageContentDeleteLimit *int
	// EditHistoryVisibility is who sees edit history: "all", "moves" (moves only) or "none".
	EditHistoryVisibility string
	// TopicsPolicy is "allow_empty_topic" or "disable_empty_topic" (topics required).
	TopicsPolicy string

	// The permission group settings.
	CanResolveTopicsGroup               GroupSetting
	CanMoveMessagesBetweenChannelsGroup GroupSetting
	CanMoveMessagesBetweenTopicsGroup   GroupSetting
	CanMentionManyUsersGroup            GroupSetting
	// Others are the group settings that only PATCH /realm and register read, by name
	// (realm_group_defaults.go).
	Others map[string]*GroupSetting
}

// GroupSetting is the value of a permission group setting: a named user group (GroupID), or
// an anonymous group of direct members and subgroups, as the real server allows.
type GroupSetting struct {
	GroupID   int
	Members   []int
	Subgroups []int
}

// apiValue is the setting as the API shows it: the group ID, or the anonymous group object.
func (g GroupSetting) apiValue() any {
	if g.GroupID != 0 {
		return g.GroupID
	}
	return map[string]any{"direct_members": groupIDsOrEmpty(g.Members), "direct_subgroups": groupIDsOrEmpty(g.Subgroups)}
}

func groupIDsOrEmpty(ids []int) []int {
	if ids == nil {
		return []int{}
	}
	return ids
}

func (g GroupSetting) equal(o GroupSetting) bool {
	return g.GroupID == o.GroupID && slices.Equal(g.Members, o.Members) && slices.Equal(g.Subgroups, o.Subgroups)
}

// inGroupSetting reports whether the user belongs to the setting's group.
func (s *OrganizationState) inGroupSetting(userID int, g GroupSetting) bool {
	if g.GroupID != 0 {
		return s.grps.inGroup(userID, g.GroupID, false)
	}
	if u := s.accts.users[userID]; u == nil || !u.IsActive {
		return false
	}
	return slices.Contains(g.Members, userID) || slices.ContainsFunc(g.Subgroups, func(id int) bool { return s.grps.inGroup(userID, id, false) })
}

// groupSettingRule is one permission group setting: its API name, where it lives, the real
// server's default group, whether it may be "role:everyone", the level that added it, the
// system groups it may be (nil: any), and whether only an owner may change it.
type groupSettingRule struct {
	name          string
	field         func(*EditingSettings) *GroupSetting
	defaultGroup  string
	allowEveryone bool
	since         int
	allowed       []string
	owner         bool
}

// GroupSettingNames are the permission group settings PATCH /realm takes, by API name.
var GroupSettingNames = func() []string {
	names := []string{
		"can_resolve_topics_group", "can_move_messages_between_channels_group",
		"can_move_messages_between_topics_group", "can_mention_many_users_group",
	}
	for _, d := range realmGroupDefaults {
		names = append(names, d.name)
	}
	return names
}()

var groupSettingRules = func() map[string]groupSettingRule {
	rules := otherGroupSettingRules()
	maps.Copy(rules, editingGroupSettingRules)
	return rules
}()

// editingGroupSettingRules are the group settings that govern editing, moving and mentions.
var editingGroupSettingRules = map[string]groupSettingRule{
	"can_resolve_topics_group": {"can_resolve_topics_group",
		func(e *EditingSettings) *GroupSetting { return &e.CanResolveTopicsGroup }, "role:everyone", true, LevelResolveTopicsGroup, nil, false},
	"can_move_messages_between_channels_group": {"can_move_messages_between_channels_group",
		func(e *EditingSettings) *GroupSetting { return &e.CanMoveMessagesBetweenChannelsGroup }, "role:members", false, LevelMoveChannelsGroup, nil, false},
	"can_move_messages_between_topics_group": {"can_move_messages_between_topics_group",
		func(e *EditingSettings) *GroupSetting { return &e.CanMoveMessagesBetweenTopicsGroup }, "role:everyone", true, LevelMoveTopicsGroup, nil, false},
	"can_mention_many_users_group": {"can_mention_many_users_group",
		func(e *EditingSettings) *GroupSetting { return &e.CanMentionManyUsersGroup }, "role:administrators", true, LevelMentionManyUsersGroup, nil, false},
}

// HasGroupSetting reports whether the realm's feature level has the group setting.
func (s *OrganizationState) HasGroupSetting(name string) bool {
	rule, ok := groupSettingRules[name]
	return ok && s.AtLeast(rule.since)
}

// A role policy is an integer naming who may do something by role, the form three permissions
// had before their group settings replaced them. The realm keeps the group setting; below its
// level, register shows and PATCH /realm takes the policy in its place. The real server still
// shows wildcard_mention_policy at every level, for older clients: from its group setting's
// level it is the narrowest policy whose users include the group's.
type rolePolicy struct {
	group  string         // the group setting that replaced it
	groups map[int]string // policy value → the system group it stands for
	order  []int          // the values from the narrowest group to the widest
	always bool           // shown in register at every level, not only below the group's
}

var rolePolicies = map[string]rolePolicy{
	"edit_topic_policy": {group: "can_move_messages_between_topics_group",
		groups: map[int]string{1: "role:members", 2: "role:administrators", 3: "role:fullmembers", 4: "role:moderators", 5: "role:everyone"},
		order:  []int{2, 4, 3, 1, 5}},
	"move_messages_between_streams_policy": {group: "can_move_messages_between_channels_group",
		groups: map[int]string{1: "role:members", 2: "role:administrators", 3: "role:fullmembers", 4: "role:moderators", 6: "role:nobody"},
		order:  []int{6, 2, 4, 3, 1}},
	"wildcard_mention_policy": {group: "can_mention_many_users_group", always: true,
		groups: map[int]string{1: "role:everyone", 2: "role:members", 3: "role:fullmembers", 5: "role:administrators", 6: "role:nobody", 7: "role:moderators"},
		order:  []int{6, 5, 7, 3, 2, 1}},
}

// RolePolicyNames are the role policies PATCH /realm takes at the realm's level, by API name.
func (s *OrganizationState) RolePolicyNames() []string {
	var names []string
	for _, name := range slices.Sorted(maps.Keys(rolePolicies)) {
		if !s.HasGroupSetting(rolePolicies[name].group) {
			names = append(names, name)
		}
	}
	return names
}

// policyValue is the narrowest policy whose users include every user of the setting's group
// (exactly the group, when it is one a policy names).
func (s *OrganizationState) policyValue(p rolePolicy, g GroupSetting) int {
	for _, v := range p.order {
		if g.GroupID != 0 && g.GroupID == s.grps.systemGroupID(p.groups[v]) {
			return v
		}
	}
	for _, v := range p.order {
		wider := s.grps.systemGroupID(p.groups[v])
		covers := true
		for id := range s.accts.users {
			if s.inGroupSetting(id, g) && !s.grps.inGroup(id, wider, false) {
				covers = false
				break
			}
		}
		if covers {
			return v
		}
	}
	return p.order[len(p.order)-1]
}

// defaultEditing returns the real server's defaults; the group settings are filled in once
// the system groups exist (setDefaultGroupSettings).
func defaultEditing() EditingSettings {
	limit := func(n int) *int { return &n }
	return EditingSettings{
		AllowMessageEditing:             true,
		MessageContentEditLimitSeconds:  limit(600),
		MoveMessagesWithinStreamLimit:   limit(604800),
		MoveMessagesBetweenStreamsLimit: limit(604800),
		MessageContentDeleteLimit:       limit(600),
		EditHistoryVisibility:           "all",
		TopicsPolicy:                    "allow_empty_topic",
	}
}

// setDefaultGroupSettings points the group settings at the real server's default system groups.
func (s *OrganizationState) setDefaultGroupSettings() {
	s.editing.Others = newOtherGroupSettings()
	system := map[string]int{} // system group IDs by name, rather than a search per setting
	for _, g := range s.grps.groups {
		if g.IsSystem {
			system[g.Name] = g.ID
		}
	}
	for _, rule := range groupSettingRules {
		*rule.field(&s.editing) = GroupSetting{GroupID: system[rule.defaultGroup]}
	}
}

// GroupSettingChange is a requested new value of a group setting, with the value the client
// expects it to have now (Old, optional), as PATCH /realm takes them.
type GroupSettingChange struct {
	New GroupSetting
	Old *GroupSetting
}

// EditingChange is a PATCH /realm request for the editing settings: nil fields and limits
// not named stay as they are.
type EditingChange struct {
	AllowMessageEditing   *bool
	Limits                map[string]*int // setting name → new limit (nil: unlimited)
	EditHistoryVisibility *string
	TopicsPolicy          *string
	Groups                map[string]GroupSettingChange
	Policies              map[string]int // role policy name → new value
}

// Editing returns the current editing settings.
func (s *OrganizationState) Editing() EditingSettings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.editing
}

// EditingSettingNames are the limit settings by their API names, in the document's order.
var EditingSettingNames = []string{
	"message_content_edit_limit_seconds", "move_messages_within_stream_limit_seconds", "move_messages_between_streams_limit_seconds",
	"message_content_delete_limit_seconds",
}

// communityTopicEditingLimit is the fixed limit on topic moves by non-moderators before
// LevelMoveLimits (realm_community_topic_editing_limit_seconds, three days).
const communityTopicEditingLimit = 259200

// EditingSettingKnown is whether PATCH /realm takes the limit setting at the realm's level:
// the move limits only from LevelMoveLimits.
func (s *OrganizationState) EditingSettingKnown(name string) bool {
	return !strings.HasPrefix(name, "move_messages_") || s.AtLeast(LevelMoveLimits)
}

// moveLimits are the time limits on topic moves and on moves between channels that hold
// non-moderators: the settings, or before LevelMoveLimits the fixed community topic editing
// limit and none between channels.
func (s *OrganizationState) moveLimits() (within, between *int) {
	if !s.atLeast(LevelMoveLimits) {
		limit := communityTopicEditingLimit
		return &limit, nil
	}
	if mutation.On("move-limits-swapped") {
		return s.editing.MoveMessagesBetweenStreamsLimit, s.editing.MoveMessagesWithinStreamLimit
	}
	return s.editing.MoveMessagesWithinStreamLimit, s.editing.MoveMessagesBetweenStreamsLimit
}

func (e *EditingSettings) limit(name string) **int {
	switch name {
	case "message_content_edit_limit_seconds":
		return &e.MessageContentEditLimitSeconds
	case "move_messages_within_stream_limit_seconds":
		return &e.MoveMessagesWithinStreamLimit
	case "message_content_delete_limit_seconds":
		return &e.MessageContentDeleteLimit
	default:
		return &e.MoveMessagesBetweenStreamsLimit
	}
}

// checkGroupSetting validates a new group setting value the way the real server does.
func (s *OrganizationState) checkGroupSetting(rule groupSettingRule, g GroupSetting) error {
	ids := g.Subgroups
	if g.GroupID != 0 {
		ids = []int{g.GroupID}
	}
	for _, id := range ids {
		grp := s.grps.groups[id]
		if grp == nil || grp.Deactivated {
			return apierr.BadRequest("Invalid user group")
		}
		if grp.IsSystem && (!rule.allowEveryone && grp.Name == "role:everyone" || rule.allowed != nil && !slices.Contains(rule.allowed, grp.Name)) {
			return apierr.BadRequest("'%s' setting cannot be set to '%s' group.", rule.name, grp.Name)
		}
	}
	for _, id := range g.Members {
		if u := s.accts.users[id]; u == nil {
			return apierr.BadRequest("Invalid user ID: %d", id)
		}
	}
	return nil
}

// planEditing checks a change (the caller is an administrator, an owner when byOwner) and
// gives the settings it leads to and those of them that actually change, without keeping
// anything; the caller holds the write lock and keeps them with applyEditing.
func (s *OrganizationState) planEditing(c EditingChange, byOwner bool) (EditingSettings, map[string]any, error) {
	next := s.editing
	next.Others = cloneGroupSettings(s.editing.Others)
	changed := map[string]any{}
	if c.AllowMessageEditing != nil && *c.AllowMessageEditing != next.AllowMessageEditing {
		next.AllowMessageEditing = *c.AllowMessageEditing
		changed["allow_message_editing"] = *c.AllowMessageEditing
	}
	for _, name := range EditingSettingNames {
		v, given := c.Limits[name]
		if !given {
			continue
		}
		cur := next.limit(name)
		if (*cur == nil) == (v == nil) && (v == nil || **cur == *v) {
			continue
		}
		*cur = v
		changed[name] = limitValue(v)
	}
	if c.EditHistoryVisibility != nil && *c.EditHistoryVisibility != next.EditHistoryVisibility {
		next.EditHistoryVisibility = *c.EditHistoryVisibility
		changed["message_edit_history_visibility_policy"] = next.EditHistoryVisibility
	}
	if c.TopicsPolicy != nil && *c.TopicsPolicy != next.TopicsPolicy {
		next.TopicsPolicy = *c.TopicsPolicy
		changed["topics_policy"] = next.TopicsPolicy
		if !s.atLeast(LevelChannelTopicsPolicy) { // the realm had mandatory_topics alone
			delete(changed, "topics_policy")
			changed["mandatory_topics"] = next.TopicsPolicy == "disable_empty_topic"
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Groups)) {
		rule, known := groupSettingRules[name]
		if !known {
			continue
		}
		change, cur := c.Groups[name], rule.field(&next)
		if rule.owner && !byOwner {
			return next, nil, apierr.MustBeOwner
		}
		if change.Old != nil && !change.Old.equal(*cur) {
			return next, nil, apierr.Of(apierr.KindInvalid, "EXPECTATION_MISMATCH", "'old' value does not match the expected value.")
		}
		if err := s.checkGroupSetting(rule, change.New); err != nil {
			return next, nil, err
		}
		if !change.New.equal(*cur) {
			*cur = change.New
			changed[name] = cur.apiValue()
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Policies)) {
		p, v := rolePolicies[name], c.Policies[name]
		group, known := p.groups[v]
		if !known {
			return next, nil, apierr.BadRequest("Invalid %s", name)
		}
		cur := groupSettingRules[p.group].field(&next)
		if s.policyValue(p, *cur) != v {
			*cur = GroupSetting{GroupID: s.grps.systemGroupID(group)}
			changed[name] = v
		}
	}
	return next, changed, nil
}

// applyEditing keeps the settings planEditing gave and publishes each changed one to every
// user in a realm event, in the real server's form for it; the caller holds the write lock.
func (s *OrganizationState) applyEditing(next EditingSettings, changed map[string]any) {
	s.editing = next
	for _, name := range slices.Sorted(maps.Keys(changed)) {
		if mutation.On("move-limit-change-unannounced") && strings.HasPrefix(name, "move_messages_") {
			continue
		}
		s.publish(realmSettingEvent(name, changed[name]), s.accts.activeUserIDs()...)
	}
}

// realmSettingEvent is the realm event announcing one changed setting: update_dict for
// the message editing settings (their historical form) and the group settings, update with
// property and value for the others (the move time limits among them).
func realmSettingEvent(name string, value any) events.Event {
	_, isGroup := groupSettingRules[name]
	if mutation.On("group-setting-event-other-value") && isGroup {
		value = -1
	}
	if mutation.On("realm-edit-setting-event-update-form") && !isGroup {
		return events.Event{"type": "realm", "op": "update", "property": name, "value": value}
	}
	if isGroup || name == "allow_message_editing" || name == "message_content_edit_limit_seconds" {
		return events.Event{"type": "realm", "op": "update_dict", "property": "default", "data": map[string]any{name: value}}
	}
	return events.Event{"type": "realm", "op": "update", "property": name, "value": value}
}

// limitValue is a limit as the API shows it: seconds, or null for unlimited.
func limitValue(v *int) any {
	if v == nil {
		return nil
	}
	return *v
}

// EditingState is the editing settings as POST /register reports them at the realm's level.
func (s *OrganizationState) EditingState() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e := s.editing
	st := map[string]any{
		"realm_allow_message_editing":                       e.AllowMessageEditing,
		"realm_message_content_edit_limit_seconds":          limitValue(e.MessageContentEditLimitSeconds),
		"realm_move_messages_within_stream_limit_seconds":   limitValue(e.MoveMessagesWithinStreamLimit),
		"realm_move_messages_between_streams_limit_seconds": limitValue(e.MoveMessagesBetweenStreamsLimit),
		"realm_message_content_delete_limit_seconds":        limitValue(e.MessageContentDeleteLimit),
		"realm_message_edit_history_visibility_policy":      e.EditHistoryVisibility,
		"realm_allow_edit_history":                          e.EditHistoryVisibility != "none",
		"realm_topics_policy":                               e.TopicsPolicy,
		"realm_mandatory_topics":                            e.TopicsPolicy == "disable_empty_topic",
	}
	if !s.atLeast(LevelChannelTopicsPolicy) {
		delete(st, "realm_topics_policy")
	}
	if !s.atLeast(LevelMoveLimits) {
		delete(st, "realm_move_messages_within_stream_limit_seconds")
		delete(st, "realm_move_messages_between_streams_limit_seconds")
		st["realm_community_topic_editing_limit_seconds"] = communityTopicEditingLimit
	}
	for name, rule := range groupSettingRules {
		if s.atLeast(rule.since) {
			st["realm_"+name] = rule.field(&e).apiValue()
		}
	}
	for name, p := range rolePolicies {
		if rule := groupSettingRules[p.group]; p.always || !s.atLeast(rule.since) {
			st["realm_"+name] = s.policyValue(p, *rule.field(&e))
		}
	}
	return st
}
