package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// invalidGroup is the answer for a group ID that names no group.
var invalidGroup = apierr.BadRequest("Invalid user group")

// getGroups: GET /user_groups.
func (s *Service) getGroups(c *handler.Call) (handler.Fields, error) {
	all := c.P.Bool("include_deactivated_groups", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	groups := s.realm().Groups(all)
	if groups == nil {
		groups = []realm.GroupView{}
	}
	return handler.Fields{"user_groups": groups}, nil
}

// getGroupMembers: GET /user_groups/{user_group_id}/members.
func (s *Service) getGroupMembers(c *handler.Call) (handler.Fields, error) {
	return groupIDs(c, "direct_member_only", "members", s.realm().GroupMembers)
}

// getGroupSubgroups: GET /user_groups/{user_group_id}/subgroups.
func (s *Service) getGroupSubgroups(c *handler.Call) (handler.Fields, error) {
	return groupIDs(c, "direct_subgroup_only", "subgroups", s.realm().GroupSubgroups)
}

// groupIDs answers the IDs a group holds under key, all of them or, with the directOnly
// parameter, its direct ones alone.
func groupIDs(c *handler.Call, directOnly, key string, list func(groupID int, directOnly bool) ([]int, error)) (handler.Fields, error) {
	groupID, err := c.PathID("user_group_id", invalidGroup)
	if err != nil {
		return nil, err
	}
	direct := c.P.Bool(directOnly, false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	ids, err := list(groupID, direct)
	if err != nil {
		return nil, err
	}
	return handler.Fields{key: ids}, nil
}

// createGroup: POST /user_groups/create — a group with direct members and subgroups.
func (s *Service) createGroup(c *handler.Call) (handler.Fields, error) {
	name := c.P.RequiredString("name")
	description := c.P.RequiredString("description")
	members := intList(c, "members", true)
	var subgroups []int
	if s.realm().AtLeast(realm.LevelGroupSubgroupsParams) { // an unknown parameter before
		subgroups = intList(c, "subgroups", false)
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().CreateGroup(c.User.ID, name, description, members, subgroups)
	if err != nil {
		return nil, err
	}
	if !s.realm().AtLeast(realm.LevelGroupCreateID) {
		return handler.Fields{}, nil
	}
	return handler.Fields{"group_id": id}, nil
}

// updateGroupMembers: POST /user_groups/{user_group_id}/members — members and subgroups.
func (s *Service) updateGroupMembers(c *handler.Call) (handler.Fields, error) {
	groupID, err := c.PathID("user_group_id", invalidGroup)
	if err != nil {
		return nil, err
	}
	ch := realm.GroupChange{Add: intList(c, "add", false), Delete: intList(c, "delete", false)}
	if s.realm().AtLeast(realm.LevelGroupSubgroupsParams) { // unknown parameters before
		ch.AddSubgroups, ch.DeleteSubgroups = intList(c, "add_subgroups", false), intList(c, "delete_subgroups", false)
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	if len(ch.Add)+len(ch.Delete)+len(ch.AddSubgroups)+len(ch.DeleteSubgroups) == 0 {
		if !s.realm().AtLeast(realm.LevelGroupSubgroupsParams) {
			return nil, apierr.BadRequest(`Nothing to do. Specify at least one of "add" or "delete".`)
		}
		return nil, apierr.BadRequest(`Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".`)
	}
	return handler.Fields{}, s.realm().ChangeGroup(c.User.ID, groupID, ch)
}

// updateGroupSubgroups: POST /user_groups/{user_group_id}/subgroups.
func (s *Service) updateGroupSubgroups(c *handler.Call) (handler.Fields, error) {
	groupID, err := c.PathID("user_group_id", invalidGroup)
	if err != nil {
		return nil, err
	}
	ch := realm.GroupChange{AddSubgroups: intList(c, "add", false), DeleteSubgroups: intList(c, "delete", false)}
	if err := c.Done(); err != nil {
		return nil, err
	}
	if len(ch.AddSubgroups)+len(ch.DeleteSubgroups) == 0 {
		return nil, apierr.BadRequest(`Nothing to do. Specify at least one of "add" or "delete".`)
	}
	return handler.Fields{}, s.realm().ChangeGroup(c.User.ID, groupID, ch)
}

// deactivateGroup: POST /user_groups/{user_group_id}/deactivate.
func (s *Service) deactivateGroup(c *handler.Call) (handler.Fields, error) {
	groupID, err := c.PathID("user_group_id", invalidGroup)
	if err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().DeactivateGroup(c.User.ID, groupID)
}

// deleteGroup: DELETE /user_groups/{user_group_id}, below LevelGroupDeletionRemoved.
func (s *Service) deleteGroup(c *handler.Call) (handler.Fields, error) {
	groupID, err := c.PathID("user_group_id", invalidGroup)
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().DeleteGroup(c.User.ID, groupID)
}

// updateGroup: POST /user_groups/{user_group_id} — name, description, reactivation.
func (s *Service) updateGroup(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("user_group_id", apierr.BadRequest("Invalid user group"))
	if err != nil {
		return nil, err
	}
	up := realm.GroupUpdate{Name: optionalString(c, "name"), Description: optionalString(c, "description")}
	up.Deactivated = optionalBool(c, "deactivated")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateGroup(c.User.ID, id, up)
}
