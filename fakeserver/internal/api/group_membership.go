package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// isGroupMember: GET /user_groups/{user_group_id}/members/{user_id} (operation 16).
func (s *Service) isGroupMember(c *handler.Call) (handler.Fields, error) {
	groupID, err := c.PathID("user_group_id", invalidGroup)
	if err != nil {
		return nil, err
	}
	userID, err := c.PathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	directOnly := c.P.Bool("direct_member_only", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	member, err := s.realm().IsGroupMember(groupID, userID, directOnly)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"is_user_group_member": member}, nil
}
