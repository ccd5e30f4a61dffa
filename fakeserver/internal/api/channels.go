package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getChannels: GET /streams — the channels a user can find, by the real server's filters.
func (s *Service) getChannels(c *handler.Call) (handler.Fields, error) {
	q := realm.ChannelQuery{
		Public:          c.P.Bool("include_public", true),
		WebPublic:       c.P.Bool("include_web_public", false),
		Subscribed:      c.P.Bool("include_subscribed", true),
		ExcludeArchived: c.P.Bool("exclude_archived", true),
		All:             c.P.Bool("include_all", false),
	}
	// include_all_active is the deprecated name of include_all.
	q.All = c.P.Bool("include_all_active", false) || q.All
	q.Default = c.P.Bool("include_default", false)
	q.OwnerSubscribed = c.P.Bool("include_owner_subscribed", false)
	q.CanAccessContent = c.P.Bool("include_can_access_content", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"streams": s.realm().Channels(c.User.ID, q)}, nil
}

// getChannel: GET /streams/{stream_id}.
func (s *Service) getChannel(c *handler.Call) (handler.Fields, error) {
	return handler.ReadByID(c, "stream_id", apierr.InvalidChannel, "stream", s.realm().ChannelByID)
}

// getChannelMembers: GET /streams/{stream_id}/members — the channel's subscribers.
func (s *Service) getChannelMembers(c *handler.Call) (handler.Fields, error) {
	return handler.ReadByID(c, "stream_id", apierr.InvalidChannel, "subscribers", s.realm().ChannelSubscribers)
}

// getChannelEmailAddress: GET /streams/{stream_id}/email_address.
func (s *Service) getChannelEmailAddress(c *handler.Call) (handler.Fields, error) {
	return handler.ReadByID(c, "stream_id", apierr.InvalidChannel, "email", s.realm().ChannelEmailAddress)
}

// getStreamID: GET /get_stream_id?stream=NAME.
func (s *Service) getStreamID(c *handler.Call) (handler.Fields, error) {
	name := c.P.RequiredString("stream")
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().ChannelIDByName(c.User.ID, name)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"stream_id": id}, nil
}

// archiveChannel: DELETE /streams/{stream_id} — archives the channel, as the real server's
// "delete" does: its messages and subscriptions stay, it takes no new messages.
func (s *Service) archiveChannel(c *handler.Call) (handler.Fields, error) {
	return handler.ChangeByID(c, "stream_id", apierr.InvalidChannel, s.realm().ArchiveChannel)
}

// updateChannel: PATCH /streams/{stream_id} — a channel's access, description, name and
// folder (from LevelChannelFolders). The settings the fake does not keep (default channel,
// retention, topics policy, permission groups) are not read, so the reply lists them in
// ignored_parameters_unsupported.
func (s *Service) updateChannel(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	var ch realm.ChannelChange
	ch.Description = optionalString(c, "description")
	ch.NewName = optionalString(c, "new_name")
	ch.IsPrivate = optionalBool(c, "is_private")
	ch.HistoryPublic = optionalBool(c, "history_public_to_subscribers")
	ch.IsWebPublic = optionalBool(c, "is_web_public")
	if archived := optionalBool(c, "is_archived"); archived != nil && !*archived {
		ch.Unarchive = true
	}
	if s.realm().AtLeast(realm.LevelChannelFolders) {
		ch.Folder = folderIDParam(c, true)
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateChannel(c.User.ID, id, ch)
}
