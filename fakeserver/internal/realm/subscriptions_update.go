package realm

import (
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// UpdateSubscriptionsResult is the answer of PATCH /users/me/subscriptions: both halves'
// answers in one, as the real server merges them.
type UpdateSubscriptionsResult struct {
	SubscribeResult
	UnsubscribeResult
}

// UpdateSubscriptions subscribes the requester to the add channels (creating missing ones),
// then unsubscribes them from the delete channels, all or nothing (PATCH
// /users/me/subscriptions). The deletions are checked before anything changes, against the
// channels as they will be once the additions are made.
func (s *ChannelState) UpdateSubscriptions(requesterID int, add []ChannelSpec, remove []string) (UpdateSubscriptionsResult, error) {
	res := UpdateSubscriptionsResult{
		SubscribeResult:   SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{}},
		UnsubscribeResult: UnsubscribeResult{Removed: []string{}, NotRemoved: []string{}},
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var missing []string
	for _, raw := range remove {
		name := strings.TrimSpace(raw)
		if err := checkChannelName(name); err != nil {
			return res, err
		}
		added := slices.ContainsFunc(add, func(sp ChannelSpec) bool { return strings.EqualFold(strings.TrimSpace(sp.Name), name) })
		if s.channelsByName[strings.ToLower(name)] == nil && !added {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return res, apierr.BadRequest("Channel(s) (%s) do not exist", strings.Join(missing, ", "))
	}
	if len(add) > 0 {
		sub, err := s.subscribeLocked(requesterID, add, SubscribeOptions{})
		if err != nil {
			return res, err
		}
		res.SubscribeResult = sub
	}
	if len(remove) > 0 {
		// Checked above: the requester's own subscriptions to channels that exist now.
		unsub, err := s.unsubscribeLocked(requesterID, remove, nil)
		if err != nil {
			return res, err
		}
		res.UnsubscribeResult = unsub
	}
	return res, nil
}
