package realm

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// IsGroupMember answers operation 16: whether the user belongs to the group, through
// subgroups too unless directOnly. A deactivated user is reported as no member.
func (s *GroupState) IsGroupMember(groupID, userID int, directOnly bool) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g := s.groups[groupID]
	if g == nil {
		return false, apierr.BadRequest("Invalid user group")
	}
	if g.Deactivated {
		return false, apierr.BadRequest("User group is deactivated.")
	}
	u := s.accts.users[userID]
	if u == nil || u.IsBot {
		return false, apierr.NoSuchUser
	}
	if mutation.On("deactivated-user-reported-member") && !u.IsActive {
		return true, nil
	}
	if mutation.On("direct-member-only-counts-deactivated") && directOnly {
		return s.memberOf(userID, groupID, true), nil
	}
	if mutation.On("direct-member-only-ignored") {
		directOnly = false
	}
	if mutation.On("subgroup-membership-ignored") {
		directOnly = true
	}
	return s.reportedMember(userID, groupID, directOnly), nil
}
