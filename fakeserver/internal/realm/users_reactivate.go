package realm

import "github.com/chatconform/chatconform/fakeserver/internal/apierr"

// ReactivateUser implements POST /users/{user_id}/reactivate for humans and bots alike; the
// administrator check ran before. Only an owner may administer an owner. The account comes
// back with what it had: deactivation kept its subscriptions and groups. Reactivating an
// active account changes nothing, as on the real server, which does not refuse it.
func (s *AccountState) ReactivateUser(requesterID, targetID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, target := s.users[requesterID], s.users[targetID]
	switch {
	case target == nil:
		return apierr.NoSuchUser
	case target.Role == RoleOwner && req.Role != RoleOwner:
		return apierr.BadRequest("Insufficient permission")
	case target.IsActive:
		return nil
	}
	target.IsActive = true
	s.publishUserUpdate(target, map[string]any{"is_active": true})
	return nil
}
