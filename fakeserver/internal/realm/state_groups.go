package realm

import (
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// GroupState is the aggregate of user groups: the system groups of the roles and the groups
// users create, with their members and subgroups and the group settings that say who may
// change them.
//
// Files: groups*.go, group_membership.go, system_groups.go, register_groups.go and this file.
type GroupState struct {
	*core
	groups    map[int]*UserGroup
	nextGroup int
}

func (s *GroupState) reset() { *s = GroupState{core: s.core, groups: map[int]*UserGroup{}} }

// loadGroups adds the fixture's user groups (after the system groups and the users).
func (s *GroupState) loadGroups(f *fixtures.Fixture) {
	byName := map[string]int{}
	for _, fg := range f.UserGroups {
		g := &UserGroup{
			ID: nextID(&s.nextGroup), Name: fg.Name, Description: fg.Description,
			Members: slices.Compact(slices.Sorted(slices.Values(fg.Members))), DateCreated: f.Realm.StartTime,
		}
		for _, sub := range fg.Subgroups {
			g.Subgroups = append(g.Subgroups, byName[strings.ToLower(sub)])
		}
		byName[strings.ToLower(fg.Name)] = g.ID
		s.groups[g.ID] = g
	}
}
