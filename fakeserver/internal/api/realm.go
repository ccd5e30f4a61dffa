package api

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateRealm: PATCH /realm — the organization's settings: those that govern editing and
// moving messages, the permission group settings, and the plain settings (realm_settings.go);
// the domain checks every value and applies them all in one step (realm.UpdateRealm), and the
// response echoes what changed, as the real server does.
func (s *Service) updateRealm(c *handler.Call) (handler.Fields, error) {
	update := realm.RealmChange{ByOwner: c.User.Role == realm.RoleOwner}
	change := &update.Editing
	change.Limits, change.Groups, change.Policies = map[string]*int{}, map[string]realm.GroupSettingChange{}, map[string]int{}
	change.AllowMessageEditing = optionalBool(c, "allow_message_editing")
	for _, name := range realm.EditingSettingNames {
		if !s.realm().EditingSettingKnown(name) {
			continue // an unknown parameter at this level
		}
		if limit, given := limitParam(c, name); given {
			change.Limits[name] = limit
		}
	}
	change.EditHistoryVisibility = jsonEnum(c, "message_edit_history_visibility_policy", "all", "moves", "none")
	if policy := legacySwitch(c, "allow_edit_history", "all", "none"); policy != nil {
		change.EditHistoryVisibility = policy
	}
	change.TopicsPolicy = jsonEnum(c, "topics_policy", "allow_empty_topic", "disable_empty_topic")
	if policy := legacySwitch(c, "mandatory_topics", "disable_empty_topic", "allow_empty_topic"); policy != nil {
		change.TopicsPolicy = policy
	}
	for _, name := range realm.GroupSettingNames {
		if !s.realm().HasGroupSetting(name) {
			continue // not a parameter at this level: reported as ignored
		}
		if g, given := groupSettingParam(c, name); given {
			change.Groups[name] = g
		}
	}
	if v, given := s.emailVisibilityParam(c, false); given {
		visibility := int(v)
		update.EmailVisibility = &visibility
	}
	if s.realm().AtLeast(realm.LevelModerationRequestChannel) {
		if v, given := c.P.Int("moderation_request_channel_id"); given {
			id := int(v)
			update.ModerationChannel = &id
		}
	}
	for _, name := range s.realm().RolePolicyNames() {
		if v, given := c.P.Int(name); given {
			change.Policies[name] = int(v)
		}
	}
	update.Plain = realmSettingParams(c, s.realm().RealmSettings())
	if err := c.Done(); err != nil {
		return nil, err
	}
	changed, err := s.realm().UpdateRealm(update)
	if err != nil {
		return nil, err
	}
	return handler.Fields(changed), nil
}

// limitParam reads a time limit: a JSON positive integer of seconds, or "unlimited" (nil).
func limitParam(c *handler.Call, name string) (*int, bool) {
	n, unlimited, ok := c.P.IntOrWord(name, "unlimited")
	switch {
	case !ok:
		return nil, false
	case unlimited:
		return nil, true
	}
	limit, ok := int32From(c, name, n, 1)
	if !ok {
		return nil, false
	}
	return &limit, true
}

// legacySwitch reads an old boolean parameter that the real server still takes for a newer
// policy setting: the policy it stands for (ifTrue or ifFalse), nil when it was not sent.
func legacySwitch(c *handler.Call, name, ifTrue, ifFalse string) *string {
	on := optionalBool(c, name)
	if on == nil {
		return nil
	}
	policy := ifFalse
	if *on {
		policy = ifTrue
	}
	return &policy
}

// emailVisibilityParam reads email_address_visibility where it is a parameter: of PATCH
// /realm below LevelUserEmailVisibility, of PATCH /settings (each user's own, userSetting)
// from it. Elsewhere it is unknown, and so reported as ignored.
func (s *Service) emailVisibilityParam(c *handler.Call, userSetting bool) (int64, bool) {
	if s.realm().AtLeast(realm.LevelUserEmailVisibility) != userSetting {
		return 0, false
	}
	return c.P.Int("email_address_visibility")
}

// jsonEnum reads an optional JSON string restricted to allowed values (nil when absent).
func jsonEnum(c *handler.Call, name string, allowed ...string) *string {
	v, ok := c.P.JSON(name)
	if !ok {
		return nil
	}
	str, isString := v.(string)
	if !isString || !slices.Contains(allowed, str) {
		c.P.Fail(apierr.BadRequest("Invalid %s", name))
		return nil
	}
	return &str
}

// groupSettingParam reads a permission group setting as the real server takes it, a JSON
// object {"new": value, "old": value}, where a value is a group ID or an anonymous group
// {"direct_members": [...], "direct_subgroups": [...]}. A bare value is taken as "new" too,
// for clients that set a group directly.
func groupSettingParam(c *handler.Call, name string) (realm.GroupSettingChange, bool) {
	v, ok := c.P.JSON(name)
	if !ok {
		return realm.GroupSettingChange{}, false
	}
	var change realm.GroupSettingChange
	obj, isObj := v.(map[string]any)
	if _, hasNew := obj["new"]; !isObj || !hasNew {
		g, err := groupValue(v, name)
		if err != nil {
			c.P.Fail(err)
			return change, false
		}
		change.New = g
		return change, true
	}
	for _, key := range slices.Sorted(maps.Keys(obj)) { // the same key named every time
		if key != "new" && key != "old" {
			c.P.Fail(apierr.BadRequest(`Argument "%s" at %s is unexpected`, key, name))
			return change, false
		}
	}
	g, err := groupValue(obj["new"], name+`["new"]`)
	if err != nil {
		c.P.Fail(err)
		return change, false
	}
	change.New = g
	if old, given := obj["old"]; given {
		g, err := groupValue(old, name+`["old"]`)
		if err != nil {
			c.P.Fail(err)
			return change, false
		}
		change.Old = &g
	}
	return change, true
}

// groupValue decodes a group ID or an anonymous group object.
func groupValue(v any, path string) (realm.GroupSetting, error) {
	if n, ok := v.(json.Number); ok {
		id, err := n.Int64()
		if err != nil || id <= 0 || id > 1<<31-1 {
			return realm.GroupSetting{}, apierr.BadRequest("Invalid user group")
		}
		return realm.GroupSetting{GroupID: int(id)}, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return realm.GroupSetting{}, apierr.BadRequest("%s is not an integer or a dict", path)
	}
	var g realm.GroupSetting
	for _, key := range slices.Sorted(maps.Keys(obj)) { // the same error every time
		list := obj[key]
		var dst *[]int
		switch key {
		case "direct_members":
			dst = &g.Members
		case "direct_subgroups":
			dst = &g.Subgroups
		default:
			return g, apierr.BadRequest(`Argument "%s" at %s is unexpected`, key, path)
		}
		items, isList := list.([]any)
		if !isList {
			return g, apierr.BadRequest(`%s["%s"] is not a list`, path, key)
		}
		ids := []int{}
		for i, item := range items {
			n, isNum := item.(json.Number)
			id, err := n.Int64()
			if !isNum || err != nil || id <= 0 || id > 1<<31-1 {
				return g, apierr.BadRequest(`%s["%s"][%d] is not an integer`, path, key, i)
			}
			ids = append(ids, int(id))
		}
		slices.Sort(ids)
		*dst = slices.Compact(ids)
	}
	return g, nil
}
