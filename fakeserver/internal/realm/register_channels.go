package realm

// The channels' part of the POST /register state: subscription, stream, default_streams and
// channel_folders.

// register adds the default channels and the channel folders with their limits.
func (s *ChannelState) register(r RegisterRequest, f map[string]any) {
	if r.want("default_streams") {
		f["realm_default_streams"] = s.DefaultChannels(r.UserID)
	}
	if r.want("channel_folders") && s.AtLeast(LevelChannelFolders) {
		f["channel_folders"] = s.ChannelFolders(true)
	}
	if r.want("realm") && s.AtLeast(LevelChannelFolderLimits) {
		f["max_channel_folder_name_length"] = MaxChannelFolderNameLength
		f["max_channel_folder_description_length"] = MaxChannelFolderDescriptionLength
	}
}

// NeverSubscribedView is a channel of never_subscribed.
type NeverSubscribedView struct {
	ChannelObject
	Subscribers []int `json:"subscribers,omitempty"`
}

// NeverSubscribed returns the channels the user can see but was never subscribed to, as
// channel objects (with subscribers when asked for).
func (s *ChannelState) NeverSubscribed(userID int, opts SubscriptionOptions) []NeverSubscribedView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[userID]
	out := []NeverSubscribedView{}
	for _, ch := range s.channelsInOrder() {
		_, former := ch.Former[userID]
		if _, subscribed := ch.Subscribers[userID]; subscribed || former || ch.Archived || (ch.InviteOnly && !u.IsAdmin()) || (u.IsGuest() && !ch.subscribed(u)) {
			continue
		}
		o := NeverSubscribedView{ChannelObject: s.channelObject(ch)}
		if opts.IncludeSubscribers && ch.canAccess(u) {
			o.Subscribers = s.subscriberIDs(ch)
		}
		out = append(out, o)
	}
	return out
}

// VisibleChannels returns the streams state: every channel the user can see, subscribed or
// not, as channel objects in ID order.
func (s *ChannelState) VisibleChannels(userID int) []ChannelObject {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[userID]
	out := []ChannelObject{}
	for _, ch := range s.channelsInOrder() {
		if !ch.Archived && (ch.canAccess(u) || (ch.InviteOnly && u.IsAdmin())) {
			out = append(out, s.channelObject(ch))
		}
	}
	return out
}
