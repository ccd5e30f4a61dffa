package realm

import (
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// ChannelQuery chooses the channels of GET /streams, as the real server's parameters do.
type ChannelQuery struct {
	Public, WebPublic, Subscribed bool
	ExcludeArchived               bool
	All                           bool // every channel whose metadata the user can see
	OwnerSubscribed               bool // bots: the channels their owner is subscribed to
	CanAccessContent              bool // every channel whose messages the user can read
	Default                       bool // add is_default
}

// ChannelListItem is a channel of GET /streams: the channel object, with is_default when asked.
type ChannelListItem struct {
	ChannelObject
	IsDefault *bool `json:"is_default,omitempty"`
}

// seesMetadata is whether u may see that a channel exists and its settings: whoever may read
// it, and administrators for private channels.
func (ch *Channel) seesMetadata(u *User) bool {
	return ch.canAccess(u) || (ch.InviteOnly && u.IsAdmin())
}

// administeredBy is whether u administers the channel: organization administrators, and the
// channel's creator, whom can_administer_channel_group names by default (the fake keeps no
// other value of it).
func (ch *Channel) administeredBy(u *User) bool { return u.IsAdmin() || ch.CreatorID == u.ID }

// Channels implements GET /streams: the channels the query selects, sorted by name.
func (s *ChannelState) Channels(userID int, q ChannelQuery) []ChannelListItem {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[userID]
	var owner *User
	if u.IsBot {
		owner = s.accts.users[u.BotOwnerID]
	}
	var out []ChannelListItem
	for _, ch := range s.channels {
		if q.ExcludeArchived && ch.Archived {
			continue
		}
		include := false
		switch {
		case q.All:
			include = ch.seesMetadata(u)
		default:
			include = (q.CanAccessContent && ch.canAccess(u)) ||
				(q.Subscribed && ch.subscribed(u)) ||
				(q.Public && !ch.InviteOnly && !u.IsGuest()) ||
				(q.OwnerSubscribed && owner != nil && ch.subscribed(owner))
		}
		if !include {
			continue
		}
		item := ChannelListItem{ChannelObject: s.channelObject(ch)}
		if q.Default {
			isDefault := s.isDefaultChannel(ch.ID)
			item.IsDefault = &isDefault
		}
		out = append(out, item)
	}
	slices.SortFunc(out, func(a, b ChannelListItem) int { return strings.Compare(a.Name, b.Name) })
	if out == nil {
		out = []ChannelListItem{}
	}
	return out
}

// ChannelByID implements GET /streams/{stream_id}: a channel whose metadata the user may see.
func (s *ChannelState) ChannelByID(userID, channelID int) (ChannelObject, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ch := s.channels[channelID]
	if ch == nil || !ch.seesMetadata(s.accts.users[userID]) {
		return ChannelObject{}, apierr.InvalidChannel
	}
	return s.channelObject(ch), nil
}
