package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getChannels: GET /streams — the channels a user can find, by the real server's filters.
func (s *Server) getChannels(c *call) (fields, error) {
	q := realm.ChannelQuery{
		Public:          c.p.Bool("include_public", true),
		WebPublic:       c.p.Bool("include_web_public", false),
		Subscribed:      c.p.Bool("include_subscribed", true),
		ExcludeArchived: c.p.Bool("exclude_archived", true),
		All:             c.p.Bool("include_all", false),
	}
	// include_all_active is the deprecated name of include_all.
	q.All = c.p.Bool("include_all_active", false) || q.All
	q.Default = c.p.Bool("include_default", false)
	q.OwnerSubscribed = c.p.Bool("include_owner_subscribed", false)
	q.CanAccessContent = c.p.Bool("include_can_access_content", false)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"streams": s.realm().Channels(c.user.ID, q)}, nil
}

// getChannel: GET /streams/{stream_id}.
func (s *Server) getChannel(c *call) (fields, error) {
	return readByID(c, "stream_id", apierr.InvalidChannel, "stream", s.realm().ChannelByID)
}

// getChannelMembers: GET /streams/{stream_id}/members — the channel's subscribers.
func (s *Server) getChannelMembers(c *call) (fields, error) {
	return readByID(c, "stream_id", apierr.InvalidChannel, "subscribers", s.realm().ChannelSubscribers)
}

// getChannelEmailAddress: GET /streams/{stream_id}/email_address.
func (s *Server) getChannelEmailAddress(c *call) (fields, error) {
	return readByID(c, "stream_id", apierr.InvalidChannel, "email", s.realm().ChannelEmailAddress)
}

// getStreamID: GET /get_stream_id?stream=NAME.
func (s *Server) getStreamID(c *call) (fields, error) {
	name := c.p.RequiredString("stream")
	if err := c.done(); err != nil {
		return nil, err
	}
	id, err := s.realm().ChannelIDByName(c.user.ID, name)
	if err != nil {
		return nil, err
	}
	return fields{"stream_id": id}, nil
}

// archiveChannel: DELETE /streams/{stream_id} — archives the channel, as the real server's
// "delete" does: its messages and subscriptions stay, it takes no new messages.
func (s *Server) archiveChannel(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().ArchiveChannel(c.user.ID, id)
}

// updateChannel: PATCH /streams/{stream_id} — a channel's access, description, name and
// folder (from LevelChannelFolders). The settings the fake does not keep (default channel,
// retention, topics policy, permission groups) are not read, so the reply lists them in
// ignored_parameters_unsupported.
func (s *Server) updateChannel(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
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
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateChannel(c.user.ID, id, ch)
}

// optionalBool reads an optional JSON boolean; nil when absent.
func optionalBool(c *call, name string) *bool {
	if !c.p.Has(name) {
		return nil
	}
	v := c.p.Bool(name, false)
	return &v
}
