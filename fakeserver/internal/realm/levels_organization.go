package realm

// The feature levels of default channels, channel folders, navigation views and custom emoji
// (the real server's changelog; levels.go has the rest).
const (
	// LevelEmojiNotFound404: removing a custom emoji that does not exist answers HTTP 404 (400
	// before).
	LevelEmojiNotFound404 = 190
	// LevelDefaultChannelIDs: register's realm_default_streams and default_streams events list
	// channel IDs (channel objects before).
	LevelDefaultChannelIDs = 330
	// LevelNavigationViews: the navigation view routes, navigation_view events and register's
	// navigation_views.
	LevelNavigationViews = 390
	// LevelChannelFolderLimits: register gives max_channel_folder_name_length and
	// max_channel_folder_description_length.
	LevelChannelFolderLimits = 410
	// LevelChannelFolderOrder: channel folders carry order and are listed by it (by ID before),
	// and PATCH /channel_folders reorders them.
	LevelChannelFolderOrder = 414
	// LevelChannelFolderReorderEvent: reordering channel folders sends a channel_folder event
	// with op reorder (no event before).
	LevelChannelFolderReorderEvent = 418
)
