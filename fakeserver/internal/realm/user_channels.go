package realm

import "github.com/chatconform/chatconform/fakeserver/internal/apierr"

// UserChannels are the IDs of the channels a user is subscribed to (GET
// /users/{user_id}/channels), of those whose subscribers the requester may see: every one for
// an administrator.
func (s *ChannelState) UserChannels(requesterID, targetID int) ([]int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	target, requester := s.accts.users[targetID], s.accts.users[requesterID]
	if target == nil || (target.IsBot && !s.atLeast(LevelBotSubscriptionStatus)) {
		return nil, apierr.NoSuchUser
	}
	ids := []int{}
	for _, ch := range s.channelsInOrder() {
		if !ch.Archived && ch.subscribed(target) && (ch.canAccess(requester) || requester.IsAdmin()) {
			ids = append(ids, ch.ID)
		}
	}
	return ids, nil
}
