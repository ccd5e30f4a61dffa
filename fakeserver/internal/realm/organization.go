package realm

// How the organization arranges its channels and how each user arranges their views: default
// channels (default_channels.go), channel folders (channel_folders.go) and navigation views
// (navigation_views.go), and the custom emoji (emoji.go).

// organizationState is the realm's default channels and channel folders, and every user's
// navigation views.
type organizationState struct {
	// defaultChannels are the IDs of the default channels, in the order they were added.
	defaultChannels []int
	folders         map[int]*channelFolder
	nextFolder      int
	// views are each user's navigation views, by user ID, in the order they were added.
	views map[int][]*NavigationView
	// emoji are the custom emoji, by ID (emoji.go).
	emoji     map[int]*customEmoji
	nextEmoji int
	// userDefaults are the realm's defaults for new users' settings that differ from the
	// built-in ones (user_settings_defaults.go).
	userDefaults map[string]any
	// realmSettings are the plain organization settings changed from their defaults, by the
	// name they are kept under (realm_settings.go).
	realmSettings map[string]any
}

func (s *State) loadOrganization() {
	s.organization = organizationState{folders: map[int]*channelFolder{}, views: map[int][]*NavigationView{}, emoji: map[int]*customEmoji{}, userDefaults: map[string]any{}, realmSettings: map[string]any{}}
}
