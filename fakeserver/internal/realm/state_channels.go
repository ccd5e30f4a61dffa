package realm

// ChannelState is the aggregate of channels and subscriptions: channels with their subscribers
// and former subscribers, per-user subscription settings, channel folders and the default
// channels of new users.
//
// Files: channels*.go, channel_*.go, subscriptions*.go, subscription_settings.go,
// user_channels.go, default_channels.go, register_channels.go and this file.
type ChannelState struct {
	*core
	channels       map[int]*Channel
	channelsByName map[string]*Channel // lower-cased name
	nextChannel    int
	// defaultChannels are the IDs of the default channels, in the order they were added.
	defaultChannels []int
	folders         map[int]*channelFolder
	nextFolder      int
}

func (s *ChannelState) reset() {
	*s = ChannelState{core: s.core, channels: map[int]*Channel{}, channelsByName: map[string]*Channel{}, folders: map[int]*channelFolder{}}
}
