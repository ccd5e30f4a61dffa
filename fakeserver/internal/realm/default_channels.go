package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Default channels are the public channels new users are subscribed to.

// DefaultChannels is register's realm_default_streams for a user: nothing for guests; the
// channel IDs from LevelDefaultChannelIDs, the channel objects before.
func (s *ChannelState) DefaultChannels(userID int) []any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.accts.users[userID].IsGuest() {
		return []any{}
	}
	return s.defaultChannelList()
}

func (s *ChannelState) defaultChannelList() []any {
	out := make([]any, 0, len(s.defaultChannels))
	for _, id := range s.defaultChannels {
		if s.atLeast(LevelDefaultChannelIDs) {
			out = append(out, id)
		} else {
			out = append(out, s.channelObject(s.channels[id]))
		}
	}
	return out
}

// isDefaultChannel tells whether the channel is a default channel.
func (s *ChannelState) isDefaultChannel(id int) bool {
	return slices.Contains(s.defaultChannels, id)
}

// publishDefaultChannels tells every active user but guests the default channels.
func (s *ChannelState) publishDefaultChannels() {
	var audience []int
	for _, id := range s.accts.activeUserIDs() {
		if !s.accts.users[id].IsGuest() {
			audience = append(audience, id)
		}
	}
	s.publish(events.Event{"type": "default_streams", "default_streams": s.defaultChannelList()}, audience...)
}

// AddDefaultChannel makes a channel default (POST /default_streams); the caller is an
// administrator, who must have access to the channel. Private channels cannot be default;
// making a default channel default again changes nothing and tells nobody.
func (s *ChannelState) AddDefaultChannel(requesterID, channelID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, err := s.accessibleChannel(s.accts.users[requesterID], channelID)
	if err != nil {
		return err
	}
	if ch.InviteOnly {
		return apierr.BadRequest("Private channels cannot be made default.")
	}
	if s.isDefaultChannel(ch.ID) {
		return nil
	}
	s.defaultChannels = append(s.defaultChannels, ch.ID)
	s.publishDefaultChannels()
	return nil
}

// RemoveDefaultChannel makes a channel no longer default (DELETE /default_streams); the
// caller is an administrator, who may name any channel. The real server tells everyone the
// default channels whether or not the channel was one.
func (s *ChannelState) RemoveDefaultChannel(requesterID, channelID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[requesterID]
	ch := s.channels[channelID]
	if ch == nil || !ch.seesMetadata(u) {
		return apierr.InvalidChannel
	}
	s.defaultChannels = slices.DeleteFunc(s.defaultChannels, func(id int) bool { return id == ch.ID })
	s.publishDefaultChannels()
	return nil
}

// subscribeToDefaultChannels subscribes a new user to the default channels, as the real
// server does for an account created without a list of channels.
func (s *ChannelState) subscribeToDefaultChannels(u *User) {
	for _, id := range s.defaultChannels {
		if ch := s.channels[id]; ch != nil && !ch.Archived && s.subscribe(ch, u) {
			s.publishSubscriptionsAdded(ch, []int{u.ID})
		}
	}
}
