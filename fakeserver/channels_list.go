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
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	ch, err := s.realm().ChannelByID(c.user.ID, id)
	if err != nil {
		return nil, err
	}
	return fields{"stream": ch}, nil
}

// getChannelMembers: GET /streams/{stream_id}/members — the channel's subscribers.
func (s *Server) getChannelMembers(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	ids, err := s.realm().ChannelSubscribers(c.user.ID, id)
	if err != nil {
		return nil, err
	}
	return fields{"subscribers": ids}, nil
}

// getSubscriptionStatus: GET /users/{user_id}/subscriptions/{stream_id}.
func (s *Server) getSubscriptionStatus(c *call) (fields, error) {
	userID, err := c.pathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	channelID, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	subscribed, err := s.realm().IsSubscribed(c.user.ID, userID, channelID)
	if err != nil {
		return nil, err
	}
	return fields{"is_subscribed": subscribed}, nil
}

// getChannelEmailAddress: GET /streams/{stream_id}/email_address.
func (s *Server) getChannelEmailAddress(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	email, err := s.realm().ChannelEmailAddress(c.user.ID, id)
	if err != nil {
		return nil, err
	}
	return fields{"email": email}, nil
}
