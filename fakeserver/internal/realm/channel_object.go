package realm

import (
	"encoding/json"
	"strconv"
)

// ChannelObject is a channel as the real server describes it in stream events, in
// subscriptions and in the register state (its BasicStreamFields), whoever looks.
type ChannelObject struct {
	StreamID                   int             `json:"stream_id"`
	Name                       string          `json:"name"`
	Description                string          `json:"description"`
	RenderedDescription        string          `json:"rendered_description"`
	DateCreated                int64           `json:"date_created"`
	CreatorID                  any             `json:"creator_id"`
	InviteOnly                 bool            `json:"invite_only"`
	IsWebPublic                bool            `json:"is_web_public"`
	HistoryPublicToSubscribers bool            `json:"history_public_to_subscribers"`
	FirstMessageID             any             `json:"first_message_id"`
	MessageRetentionDays       any             `json:"message_retention_days"`
	StreamWeeklyTraffic        any             `json:"stream_weekly_traffic"`
	IsArchived                 bool            `json:"is_archived"`
	IsAnnouncementOnly         bool            `json:"is_announcement_only"`
	StreamPostPolicy           int             `json:"stream_post_policy"`
	TopicsPolicy               string          `json:"topics_policy,omitempty"` // from LevelChannelTopicsPolicy
	FolderID                   json.RawMessage `json:"folder_id,omitempty"`     // null from LevelChannelFolders
	IsRecentlyActive           bool            `json:"is_recently_active"`
	SubscriberCount            *int            `json:"subscriber_count,omitempty"` // from LevelSubscriberCount
	// The channel's permission settings: a system group's id, or the members and subgroups.
	CanAddSubscribersGroup            any `json:"can_add_subscribers_group"`
	CanAdministerChannelGroup         any `json:"can_administer_channel_group"`
	CanCreateTopicGroup               any `json:"can_create_topic_group,omitempty"`
	CanDeleteAnyMessageGroup          any `json:"can_delete_any_message_group,omitempty"`
	CanDeleteOwnMessageGroup          any `json:"can_delete_own_message_group,omitempty"`
	CanMoveMessagesOutOfChannelGroup  any `json:"can_move_messages_out_of_channel_group,omitempty"`
	CanMoveMessagesWithinChannelGroup any `json:"can_move_messages_within_channel_group,omitempty"`
	CanRemoveSubscribersGroup         any `json:"can_remove_subscribers_group"`
	CanResolveTopicsGroup             any `json:"can_resolve_topics_group,omitempty"`
	CanSendMessageGroup               any `json:"can_send_message_group"`
	CanSubscribeGroup                 any `json:"can_subscribe_group"`
}

// channelObject describes a channel. The fake keeps no per-channel permission settings:
// they show the real server's defaults for a new channel (its creator administers it).
func (s *ChannelState) channelObject(ch *Channel) ChannelObject {
	group := func(name string) any { return s.grps.systemGroupID(name) }
	o := ChannelObject{
		StreamID: ch.ID, Name: ch.Name, Description: ch.Description,
		RenderedDescription: s.renderDescription(ch.Description), DateCreated: ch.DateCreated,
		InviteOnly: ch.InviteOnly, HistoryPublicToSubscribers: ch.HistoryPublicToSubscribers,
		IsArchived: ch.Archived, StreamPostPolicy: 1, IsRecentlyActive: true,
		CanAddSubscribersGroup:    group("role:nobody"),
		CanAdministerChannelGroup: group("role:nobody"),
		CanRemoveSubscribersGroup: group("role:administrators"),
		CanSendMessageGroup:       group("role:everyone"),
		CanSubscribeGroup:         group("role:nobody"),
	}
	// The fields the real server added after 10.1 (level 372), each from its level.
	if s.atLeast(LevelChannelFolders) {
		o.FolderID = json.RawMessage("null")
		if ch.FolderID != 0 {
			o.FolderID = json.RawMessage(strconv.Itoa(ch.FolderID))
		}
	}
	if s.atLeast(LevelChannelTopicsPolicy) {
		o.TopicsPolicy = "inherit"
	}
	if s.atLeast(LevelSubscriberCount) {
		n := len(s.subscriberIDs(ch))
		o.SubscriberCount = &n
	}
	if s.atLeast(LevelChannelMoveGroups) {
		o.CanMoveMessagesOutOfChannelGroup, o.CanMoveMessagesWithinChannelGroup = group("role:nobody"), group("role:nobody")
	}
	if s.atLeast(LevelChannelResolveGroup) {
		o.CanResolveTopicsGroup = group("role:nobody")
	}
	if s.atLeast(LevelChannelDeleteGroups) {
		o.CanDeleteAnyMessageGroup, o.CanDeleteOwnMessageGroup = group("role:administrators"), group("role:everyone")
	}
	if s.atLeast(LevelChannelCreateTopicGroup) {
		o.CanCreateTopicGroup = group("role:everyone")
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
func (s *ChannelState) renderDescription(description string) string {
	if description == "" {
		return ""
	}
	return s.msgs.render(description).HTML
}
