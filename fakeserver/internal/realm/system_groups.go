package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// UserGroup is a group of users. System groups follow roles; their members are derived from
// the users' roles instead of being stored, so a role change moves a user between them.
type UserGroup struct {
	ID          int
	Name        string
	Description string
	Members     []int // direct members (stored groups only)
	Subgroups   []int // direct subgroups
	IsSystem    bool
	Deactivated bool
	CreatorID   int   // 0 for system groups
	DateCreated int64 // UNIX seconds; 0 for system groups
	// role is the role whose users are the direct members of a system group (0: none).
	role int
}

// System groups, in the real server's order and with its names. Each includes the next more
// privileged one as a subgroup, so "members" includes moderators, administrators and owners.
var systemGroups = []struct {
	name, description string
	role              int
	subgroup          string
}{
	{"role:nobody", "Nobody", 0, ""},
	{"role:owners", "Owners of this organization", RoleOwner, ""},
	{"role:administrators", "Administrators of this organization, including owners", RoleAdmin, "role:owners"},
	{"role:moderators", "Moderators of this organization, including administrators", RoleModerator, "role:administrators"},
	{"role:fullmembers", "Members of this organization, not including new accounts and guests", RoleMember, "role:moderators"},
	{"role:members", "Members of this organization, not including guests", 0, "role:fullmembers"},
	{"role:everyone", "Everyone in this organization, including guests", RoleGuest, "role:members"},
}

// addSystemGroups creates the system groups of a fresh realm.
func (s *GroupState) addSystemGroups() {
	byName := map[string]int{}
	for _, sg := range systemGroups {
		g := &UserGroup{ID: nextID(&s.nextGroup), Name: sg.name, Description: sg.description, IsSystem: true, role: sg.role}
		if sg.subgroup != "" {
			g.Subgroups = []int{byName[sg.subgroup]}
		}
		byName[sg.name] = g.ID
		s.groups[g.ID] = g
	}
}

// SystemGroupID returns the ID of a system group by name ("role:moderators").
func (s *GroupState) SystemGroupID(name string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.systemGroupID(name)
}

func (s *GroupState) systemGroupID(name string) int {
	for _, g := range s.groups {
		if g.IsSystem && g.Name == name {
			return g.ID
		}
	}
	return 0
}

// directMembers lists a group's direct members, deriving a system group's from roles.
func (s *GroupState) directMembers(g *UserGroup) []int {
	if !g.IsSystem {
		return g.Members
	}
	var ids []int
	if g.role != 0 {
		for id, u := range s.accts.users {
			if u.Role == g.role {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// inGroup reports whether the user belongs to the group, through subgroups too unless
// directOnly. Deactivated users belong to no group, and deactivated subgroups count for nothing.
func (s *GroupState) inGroup(userID, groupID int, directOnly bool) bool {
	u := s.accts.users[userID]
	return u != nil && u.IsActive && s.memberOf(userID, groupID, directOnly)
}

// reportedMember is whether answers about the group list the user as a member (listedMember).
func (s *GroupState) reportedMember(userID, groupID int, directOnly bool) bool {
	return s.listedMember(userID) && s.memberOf(userID, groupID, directOnly)
}

// listedMember is whether answers about groups list the user among their members: an active
// user, or below LevelDeactivatedNotMembers a deactivated one too (the real server kept
// listing them; a deactivated user never has a member's permissions).
func (s *GroupState) listedMember(userID int) bool {
	u := s.accts.users[userID]
	return u != nil && (u.IsActive || !s.atLeast(LevelDeactivatedNotMembers))
}

// memberOf is group membership whatever the user's state: through subgroups too unless
// directOnly, deactivated subgroups counting for nothing.
func (s *GroupState) memberOf(userID, groupID int, directOnly bool) bool {
	seen := map[int]bool{}
	var walk func(id int) bool
	walk = func(id int) bool {
		g := s.groups[id]
		if g == nil || seen[id] || g.Deactivated {
			return false
		}
		seen[id] = true
		if slices.Contains(s.directMembers(g), userID) {
			return true
		}
		if mutation.On("subgroups-one-level-deep") && id != groupID {
			return false
		}
		if directOnly {
			return false
		}
		return slices.ContainsFunc(g.Subgroups, walk)
	}
	return walk(groupID)
}
