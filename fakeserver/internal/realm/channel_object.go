package realm

// ChannelObject is a channel as the real server describes it in stream events, in
// subscriptions and in the register state (its BasicStreamFields), whoever looks.
type ChannelObject struct {
	StreamID                   int    `json:"stream_id"`
	Name                       string `json:"name"`
	Description                string `json:"description"`
	RenderedDescription        string `json:"rendered_description"`
	DateCreated                int64  `json:"date_created"`
	CreatorID                  any    `json:"creator_id"`
	InviteOnly                 bool   `json:"invite_only"`
	IsWebPublic                bool   `json:"is_web_public"`
	HistoryPublicToSubscribers bool   `json:"history_public_to_subscribers"`
	FirstMessageID             any    `json:"first_message_id"`
	MessageRetentionDays       any    `json:"message_retention_days"`
	StreamWeeklyTraffic        any    `json:"stream_weekly_traffic"`
	IsArchived                 bool   `json:"is_archived"`
	IsAnnouncementOnly         bool   `json:"is_announcement_only"`
	StreamPostPolicy           int    `json:"stream_post_policy"`
	TopicsPolicy               string `json:"topics_policy"`
	FolderID                   any    `json:"folder_id"`
	IsRecentlyActive           bool   `json:"is_recently_active"`
	SubscriberCount            int    `json:"subscriber_count"`
	// The channel's permission settings: a system group's id, or the members and subgroups.
	CanAddSubscribersGroup            any `json:"can_add_subscribers_group"`
	CanAdministerChannelGroup         any `json:"can_administer_channel_group"`
	CanDeleteAnyMessageGroup          any `json:"can_delete_any_message_group"`
	CanDeleteOwnMessageGroup          any `json:"can_delete_own_message_group"`
	CanMoveMessagesOutOfChannelGroup  any `json:"can_move_messages_out_of_channel_group"`
	CanMoveMessagesWithinChannelGroup any `json:"can_move_messages_within_channel_group"`
	CanRemoveSubscribersGroup         any `json:"can_remove_subscribers_group"`
	CanResolveTopicsGroup             any `json:"can_resolve_topics_group"`
	CanSendMessageGroup               any `json:"can_send_message_group"`
	CanSubscribeGroup                 any `json:"can_subscribe_group"`
}

// channelObject describes a channel. The fake keeps no per-channel permission settings:
// they show the real server's defaults for a new channel (its creator administers it).
func (s *State) channelObject(ch *Channel) ChannelObject {
	group := func(name string) any { return s.systemGroupID(name) }
	o := ChannelObject{
		StreamID: ch.ID, Name: ch.Name, Description: ch.Description,
		RenderedDescription: s.renderDescription(ch.Description), DateCreated: ch.DateCreated,
		InviteOnly: ch.InviteOnly, HistoryPublicToSubscribers: ch.HistoryPublicToSubscribers,
		IsArchived: ch.Archived, StreamPostPolicy: 1, TopicsPolicy: "inherit", IsRecentlyActive: true,
		SubscriberCount:                   len(s.subscriberIDs(ch)),
		CanAddSubscribersGroup:            group("role:nobody"),
		CanAdministerChannelGroup:         group("role:nobody"),
		CanDeleteAnyMessageGroup:          group("role:administrators"),
		CanDeleteOwnMessageGroup:          group("role:everyone"),
		CanMoveMessagesOutOfChannelGroup:  group("role:nobody"),
		CanMoveMessagesWithinChannelGroup: group("role:nobody"),
		CanRemoveSubscribersGroup:         group("role:administrators"),
		CanResolveTopicsGroup:             group("role:nobody"),
		CanSendMessageGroup:               group("role:everyone"),
		CanSubscribeGroup:                 group("role:nobody"),
	}
	if ch.CreatorID != 0 {
		o.CreatorID = ch.CreatorID
		o.CanAdministerChannelGroup = map[string]any{"direct_members": []int{ch.CreatorID}, "direct_subgroups": []int{}}
	}
	if ch.FirstMessageID != 0 {
		o.FirstMessageID = ch.FirstMessageID
	}
	return o
}

// renderDescription renders a channel description as Markdown, as the real server does.
func (s *State) renderDescription(description string) string {
	if description == "" {
		return ""
	}
	return s.render(description).HTML
}
