package realm

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Limits of the real server's user groups.
const (
	maxGroupNameLength        = 100
	maxGroupDescriptionLength = 1024
)

// GroupView is a user group as GET /user_groups and the user_group events show it.
type GroupView struct {
	ID                int    `json:"id"`
	Name              string `json:"name"`
	Description       string `json:"description"`
	Members           []int  `json:"members"`
	DirectSubgroupIDs []int  `json:"direct_subgroup_ids"`
	IsSystemGroup     bool   `json:"is_system_group"`
	Deactivated       bool   `json:"deactivated"`
	CreatorID         any    `json:"creator_id"`
	DateCreated       any    `json:"date_created"`
	// The group's permission settings: a system group's id, or the members and subgroups.
	CanAddMembersGroup    any `json:"can_add_members_group"`
	CanJoinGroup          any `json:"can_join_group"`
	CanLeaveGroup         any `json:"can_leave_group"`
	CanManageGroup        any `json:"can_manage_group"`
	CanMentionGroup       any `json:"can_mention_group"`
	CanRemoveMembersGroup any `json:"can_remove_members_group"`
}

func (s *GroupState) groupView(g *UserGroup) GroupView {
	v := GroupView{
		ID: g.ID, Name: g.Name, Description: g.Description, Members: s.reportedDirectMembers(g),
		DirectSubgroupIDs: nonNil(slices.Clone(g.Subgroups)), IsSystemGroup: g.IsSystem, Deactivated: g.Deactivated,
		// The fake keeps no per-group permission settings: they show the real server's
		// defaults (a group's creator manages it; nobody manages a system group).
		CanAddMembersGroup: s.systemGroupID("role:nobody"), CanJoinGroup: s.systemGroupID("role:nobody"),
		CanLeaveGroup: s.systemGroupID("role:everyone"), CanManageGroup: s.systemGroupID("role:nobody"),
		CanMentionGroup: s.systemGroupID("role:everyone"), CanRemoveMembersGroup: s.systemGroupID("role:nobody"),
	}
	if g.IsSystem {
		v.CanLeaveGroup = s.systemGroupID("role:nobody")
	}
	if !g.IsSystem {
		v.DateCreated = g.DateCreated
		if g.CreatorID != 0 {
			v.CreatorID = g.CreatorID
			v.CanManageGroup = map[string]any{"direct_members": []int{g.CreatorID}, "direct_subgroups": []int{}}
		}
	}
	return v
}

func nonNil(ids []int) []int {
	if ids == nil {
		return []int{}
	}
	return ids
}

// Groups lists the realm's groups in ID order; deactivated groups only when asked for.
func (s *GroupState) Groups(includeDeactivated bool) []GroupView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []GroupView
	for _, id := range slices.Sorted(maps.Keys(s.groups)) {
		if g := s.groups[id]; includeDeactivated || !g.Deactivated {
			out = append(out, s.groupView(g))
		}
	}
	return out
}

// canCreateGroups is the real server's default of can_create_groups: members, not guests.
func canCreateGroups(u *User) bool { return !u.IsGuest() }

// canManageGroup: the group's creator and the realm's administrators manage a user-created
// group (the real server's defaults of can_manage_group and can_manage_all_groups); system
// groups follow roles and nobody edits them.
func canManageGroup(u *User, g *UserGroup) bool {
	return !g.IsSystem && (u.IsAdmin() || g.CreatorID == u.ID)
}

// CreateGroup creates a user group with direct members and subgroups (POST /user_groups/create).
func (s *GroupState) CreateGroup(requesterID int, name, description string, members, subgroups []int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.accts.users[requesterID]
	if !canCreateGroups(req) {
		return 0, apierr.BadRequest("Insufficient permission")
	}
	name = strings.TrimSpace(name)
	if err := s.checkGroupName(name, nil); err != nil {
		return 0, err
	}
	if err := checkGroupDescription(description); err != nil {
		return 0, err
	}
	members, err := s.checkNewMembers(members)
	if err != nil {
		return 0, err
	}
	subgroups, err = s.checkSubgroups(subgroups)
	if err != nil {
		return 0, err
	}
	if len(s.groups) >= MaxUserGroups {
		return 0, apierr.BadRequest("An organization can have at most %d user groups.", MaxUserGroups)
	}
	g := &UserGroup{
		ID: nextID(&s.nextGroup), Name: name, Description: description, Members: members,
		Subgroups: subgroups, CreatorID: req.ID, DateCreated: s.Now(),
	}
	s.groups[g.ID] = g
	s.publish(events.Event{"type": "user_group", "op": "add", "group": s.groupView(g)}, s.accts.activeUserIDs()...)
	return g.ID, nil
}

// checkGroupName applies the real server's rules to a group name, already trimmed, that
// group g (nil for a new group) would take.
func (s *GroupState) checkGroupName(name string, g *UserGroup) error {
	switch {
	case name == "":
		return apierr.BadRequest("User group name cannot be empty.")
	case utf8.RuneCountInString(name) > maxGroupNameLength:
		return apierr.BadRequest("name is too long (limit: %d characters)", maxGroupNameLength)
	case strings.HasPrefix(name, "role:") || strings.HasPrefix(name, "@"):
		return apierr.BadRequest("User group name cannot start with '%s'.", name[:strings.IndexAny(name, ":@")+1])
	}
	for _, other := range s.groups {
		if other != g && strings.EqualFold(other.Name, name) {
			return apierr.BadRequest("User group '%s' already exists.", name)
		}
	}
	return nil
}

func checkGroupDescription(description string) error {
	if utf8.RuneCountInString(description) > maxGroupDescriptionLength {
		return apierr.BadRequest("description is too long (limit: %d characters)", maxGroupDescriptionLength)
	}
	return nil
}

// checkNewMembers checks user IDs to add to a group: each an active user, once.
func (s *GroupState) checkNewMembers(ids []int) ([]int, error) {
	out := []int{}
	for _, id := range ids {
		u := s.accts.users[id]
		if u == nil {
			return nil, apierr.BadRequest("Invalid user ID: %d", id)
		}
		if !u.IsActive {
			return nil, apierr.BadRequest("User is deactivated")
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

// checkSubgroups checks group IDs to add as subgroups: each an existing, active group.
func (s *GroupState) checkSubgroups(ids []int) ([]int, error) {
	out := []int{}
	for _, id := range ids {
		g := s.groups[id]
		if g == nil {
			return nil, apierr.BadRequest("Invalid user group ID: %d", id)
		}
		if g.Deactivated {
			return nil, apierr.BadRequest("User group is deactivated.")
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// GroupChange is a change of a group's direct members and subgroups; every list is of IDs.
type GroupChange struct {
	Add, Delete, AddSubgroups, DeleteSubgroups []int
}

// ChangeGroup applies a change to a user group's members and subgroups (POST
// /user_groups/{id}/members and /subgroups), all checks first: nothing changes on error.
func (s *GroupState) ChangeGroup(requesterID, groupID int, ch GroupChange) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.managedGroup(requesterID, groupID)
	if err != nil {
		return err
	}
	add, err := s.checkNewMembers(ch.Add)
	if err != nil {
		return err
	}
	for _, id := range add {
		if slices.Contains(g.Members, id) {
			return apierr.BadRequest("User %d is already a member of this group", id)
		}
	}
	for _, id := range ch.Delete {
		if !slices.Contains(g.Members, id) {
			return apierr.BadRequest("There is no member '%d' in this user group", id)
		}
	}
	addSub, err := s.checkSubgroups(ch.AddSubgroups)
	if err != nil {
		return err
	}
	for _, id := range addSub {
		if slices.Contains(g.Subgroups, id) {
			return apierr.BadRequest("User group %d is already a subgroup of this group.", id)
		}
		if id == g.ID || s.reachesGroup(id, g.ID) {
			return apierr.BadRequest("User group %d is already a subgroup of one of the passed subgroups.", g.ID)
		}
	}
	for _, id := range ch.DeleteSubgroups {
		if !slices.Contains(g.Subgroups, id) {
			return apierr.BadRequest("User group %d is not a subgroup of this group.", id)
		}
	}
	s.applyGroupChange(g, add, ch.Delete, addSub, ch.DeleteSubgroups)
	return nil
}

// reachesGroup reports whether target is from, or a subgroup of from at any depth.
func (s *GroupState) reachesGroup(from, target int) bool {
	seen := map[int]bool{}
	var walk func(id int) bool
	walk = func(id int) bool {
		if id == target {
			return true
		}
		g := s.groups[id]
		if g == nil || seen[id] {
			return false
		}
		seen[id] = true
		return slices.ContainsFunc(g.Subgroups, walk)
	}
	return walk(from)
}

func (s *GroupState) applyGroupChange(g *UserGroup, add, del, addSub, delSub []int) {
	audience := s.accts.activeUserIDs()
	update := func(op, key string, ids []int) {
		if len(ids) > 0 {
			s.publish(events.Event{"type": "user_group", "op": op, "group_id": g.ID, key: ids}, audience...)
		}
	}
	// New slices, never changed in place: views and queued events may still hold the old ones.
	g.Members = slices.DeleteFunc(slices.Concat(g.Members, add), func(id int) bool { return slices.Contains(del, id) })
	slices.Sort(g.Members)
	g.Subgroups = slices.DeleteFunc(slices.Concat(g.Subgroups, addSub), func(id int) bool { return slices.Contains(delSub, id) })
	update("add_members", "user_ids", add)
	update("remove_members", "user_ids", del)
	update("add_subgroups", "direct_subgroup_ids", addSub)
	update("remove_subgroups", "direct_subgroup_ids", delSub)
}

// DeactivateGroup deactivates a user group (POST /user_groups/{id}/deactivate): it keeps its
// members but counts for nothing, neither as a group nor as a subgroup.
func (s *GroupState) DeactivateGroup(requesterID, groupID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.managedGroup(requesterID, groupID)
	if err != nil {
		return err
	}
	if g.Deactivated {
		return apierr.BadRequest("User group is already deactivated.")
	}
	if objections := s.groupObjections(g); len(objections) > 0 {
		if !s.atLeast(LevelGroupInUseCode) {
			return apierr.BadRequest("Cannot deactivate user group in use.")
		}
		return apierr.Of(apierr.KindInvalid, "CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.").With("objections", objections)
	}
	s.setGroupDeactivated(g, true)
	return nil
}

// groupObjections are where an active group is in use, as the real server lists them when it
// refuses to deactivate the group: the active groups it is a direct subgroup of, and the realm
// settings that name it.
func (s *GroupState) groupObjections(g *UserGroup) []map[string]any {
	var objections []map[string]any
	supergroups := slices.DeleteFunc(s.supergroupsOf(g.ID), func(id int) bool { return s.groups[id].Deactivated })
	if len(supergroups) > 0 {
		objections = append(objections, map[string]any{"type": "subgroup", "supergroup_ids": supergroups})
	}
	var settings []string
	for _, name := range slices.Sorted(maps.Keys(groupSettingRules)) {
		if setting := groupSettingRules[name].field(&s.org.editing); setting.GroupID == g.ID || slices.Contains(setting.Subgroups, g.ID) {
			settings = append(settings, name)
		}
	}
	if len(settings) > 0 {
		objections = append(objections, map[string]any{"type": "realm", "settings": settings})
	}
	return objections
}

// supergroupsOf lists, in ID order, the groups that have groupID as a direct subgroup.
func (s *GroupState) supergroupsOf(groupID int) []int {
	var ids []int
	for _, id := range slices.Sorted(maps.Keys(s.groups)) {
		if slices.Contains(s.groups[id].Subgroups, groupID) {
			ids = append(ids, id)
		}
	}
	return ids
}

// DeleteGroup deletes a user group (DELETE /user_groups/{id}), the way groups ended on the
// real server before deactivation (below LevelGroupDeletionRemoved): the groups it was a
// subgroup of lose it. No realm setting can name it there: the group settings came later.
func (s *GroupState) DeleteGroup(requesterID, groupID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.managedGroup(requesterID, groupID)
	if err != nil {
		return err
	}
	for _, id := range s.supergroupsOf(g.ID) {
		s.applyGroupChange(s.groups[id], nil, nil, nil, []int{g.ID})
	}
	delete(s.groups, g.ID)
	s.publish(events.Event{"type": "user_group", "op": "remove", "group_id": g.ID}, s.accts.activeUserIDs()...)
	return nil
}

// setGroupDeactivated deactivates or reactivates a group. Clients that do not know
// deactivated groups (capability include_deactivated_groups) see the group removed, or added
// back, as on the real server.
func (s *GroupState) setGroupDeactivated(g *UserGroup, deactivated bool) {
	g.Deactivated = deactivated
	update := events.Event{"type": "user_group", "op": "update", "group_id": g.ID, "data": map[string]any{"deactivated": deactivated}}
	other := events.Event{"type": "user_group", "op": "remove", "group_id": g.ID}
	if !deactivated {
		other = events.Event{"type": "user_group", "op": "add", "group": s.groupView(g)}
	}
	s.events.PublishEach(func(_ int, c events.Client) []events.Event {
		if c.Can("include_deactivated_groups") {
			return []events.Event{update}
		}
		return []events.Event{other}
	}, s.accts.activeUserIDs()...)
}

// reportedDirectMembers are the direct members a group's object lists (listedMember).
func (s *GroupState) reportedDirectMembers(g *UserGroup) []int {
	out := []int{}
	for _, id := range s.directMembers(g) {
		if s.listedMember(id) {
			out = append(out, id)
		}
	}
	return out
}

// GroupMembers lists a group's members (GET /user_groups/{id}/members), active users only.
func (s *GroupState) GroupMembers(groupID int, directOnly bool) ([]int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.groups[groupID] == nil {
		return nil, apierr.BadRequest("Invalid user group")
	}
	out := []int{}
	for _, id := range slices.Sorted(maps.Keys(s.accts.users)) {
		if s.reportedMember(id, groupID, directOnly) {
			out = append(out, id)
		}
	}
	return out, nil
}

// GroupSubgroups lists a group's subgroups in ID order (GET /user_groups/{id}/subgroups): the
// direct ones, or every group reached through them.
func (s *GroupState) GroupSubgroups(groupID int, directOnly bool) ([]int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g := s.groups[groupID]
	if g == nil {
		return nil, apierr.BadRequest("Invalid user group")
	}
	seen := map[int]bool{}
	queue := slices.Clone(g.Subgroups)
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if seen[id] || id == groupID {
			continue
		}
		seen[id] = true
		if !directOnly {
			queue = append(queue, s.groups[id].Subgroups...)
		}
	}
	return append([]int{}, slices.Sorted(maps.Keys(seen))...), nil
}

// managedGroup finds a group the requester may change, or the real server's error for a
// missing group or one they may not manage.
func (s *GroupState) managedGroup(requesterID, groupID int) (*UserGroup, error) {
	g := s.groups[groupID]
	if g == nil {
		return nil, apierr.BadRequest("Invalid user group")
	}
	if !canManageGroup(s.accts.users[requesterID], g) {
		return nil, apierr.BadRequest("Insufficient permission")
	}
	return g, nil
}
