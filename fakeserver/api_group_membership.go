package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// isGroupMember: GET /user_groups/{user_group_id}/members/{user_id} (operation 16).
func (s *Server) isGroupMember(c *call) (fields, error) {
	groupID, err := c.pathID("user_group_id", invalidGroup)
	if err != nil {
		return nil, err
	}
	userID, err := c.pathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	directOnly := c.p.Bool("direct_member_only", false)
	if err := c.done(); err != nil {
		return nil, err
	}
	member, err := s.realm().IsGroupMember(groupID, userID, directOnly)
	if err != nil {
		return nil, err
	}
	return fields{"is_user_group_member": member}, nil
}
