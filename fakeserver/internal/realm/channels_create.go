package realm

import (
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// CreateChannel creates one channel and subscribes the listed users to it, possibly nobody
// (POST /channels/create), all or nothing. Unlike subscribing, naming a channel that exists
// is an error, and the requester is subscribed only when listed.
func (s *ChannelState) CreateChannel(requesterID int, sp ChannelSpec, opts SubscribeOptions) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.accts.users[requesterID]
	if req.IsGuest() {
		return 0, apierr.BadRequest("Not allowed for guest users")
	}
	if err := s.checkFolderExists(opts.FolderID); err != nil {
		return 0, err
	}
	name := strings.TrimSpace(sp.Name)
	if err := checkChannelName(name); err != nil {
		return 0, err
	}
	if err := checkNewChannelDescription(sp.Description); err != nil {
		return 0, err
	}
	if s.channelsByName[strings.ToLower(name)] != nil {
		return 0, apierr.Of(apierr.KindInvalid, "CHANNEL_ALREADY_EXISTS", "Channel '%s' already exists", name)
	}
	subscribers, err := s.activeUsers(opts.Principals)
	if err != nil {
		return 0, err
	}
	sp.Name = name
	ch := s.createChannel(req, sp, opts)
	var added []int
	for _, u := range subscribers {
		if s.subscribe(ch, u) {
			added = append(added, u.ID)
		}
	}
	// The channel exists before anyone is subscribed to it, as in Subscribe.
	s.publish(events.Event{"type": "stream", "op": "create", "streams": []ChannelObject{s.channelObject(ch)}}, s.channelAudience(ch)...)
	s.publishSubscriptionsAdded(ch, added)
	return ch.ID, nil
}
