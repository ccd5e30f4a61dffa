package fakeserver

import (
	"encoding/json"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// subscribe: POST /users/me/subscriptions — creates missing channels and subscribes.
func (s *Server) subscribe(c *call) (fields, error) {
	specs := channelSpecs(c)
	opts := realm.SubscribeOptions{InviteOnly: c.p.Bool("invite_only", false)}
	opts.HistoryPublic = optionalBool(c, "history_public_to_subscribers")
	if s.realm().AtLeast(realm.LevelChannelFolders) {
		opts.FolderID = folderOrNone(c)
	}
	principals := s.principals(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	opts.Principals = principals
	res, err := s.realm().Subscribe(c.user.ID, specs, opts)
	if err != nil {
		return nil, err
	}
	return fields{"subscribed": res.Subscribed, "already_subscribed": res.AlreadySubscribed}, nil
}

// channelSpecs reads `subscriptions`: a JSON list of {"name", "description"} objects.
func channelSpecs(c *call) []realm.ChannelSpec {
	if !c.p.Has("subscriptions") {
		c.p.Fail(apierr.Missing("subscriptions"))
		return nil
	}
	list, ok := jsonOfKind[[]any](c, "subscriptions", "a list")
	if !ok {
		return nil
	}
	specs := make([]realm.ChannelSpec, 0, len(list))
	for i, item := range list {
		obj, isObj := item.(map[string]any)
		name, hasName := obj["name"].(string)
		if !isObj || !hasName {
			c.p.Fail(apierr.BadRequest(`subscriptions[%d]["name"] is not a string`, i))
			return nil
		}
		desc, isString := obj["description"].(string)
		if _, given := obj["description"]; given && !isString {
			c.p.Fail(apierr.BadRequest(`subscriptions[%d]["description"] is not a string`, i))
			return nil
		}
		specs = append(specs, realm.ChannelSpec{Name: name, Description: desc})
	}
	if len(specs) == 0 {
		c.p.Fail(apierr.BadRequest("Nothing to do. Specify at least one channel."))
	}
	return specs
}

// principals reads the optional JSON list of user IDs or emails to subscribe.
func (s *Server) principals(c *call) []int {
	list, ok := jsonOfKind[[]any](c, "principals", "a list")
	if !ok {
		return nil
	}
	ids := make([]int, 0, len(list))
	for _, item := range list {
		switch p := item.(type) {
		case json.Number:
			id, err := p.Int64()
			if err != nil {
				c.p.Fail(apierr.BadRequest("principals contains an invalid user ID"))
				return nil
			}
			ids = append(ids, int(id))
		case string:
			id, found := s.realm().UserIDByEmail(c.user.ID, p)
			if !found {
				c.p.Fail(apierr.BadRequest("No such user"))
				return nil
			}
			ids = append(ids, id)
		default:
			c.p.Fail(apierr.BadRequest("principals is not a list of user IDs or emails"))
			return nil
		}
	}
	return ids
}

// getSubscriptions: GET /users/me/subscriptions — the requester's subscriptions and settings.
func (s *Server) getSubscriptions(c *call) (fields, error) {
	withSubscribers := c.p.Bool("include_subscribers", false)
	if err := c.done(); err != nil {
		return nil, err
	}
	subs := s.realm().Subscriptions(c.user.ID, realm.SubscriptionOptions{
		IncludeSubscribers: withSubscribers, NotificationSettingsNull: true, IncludeArchived: true,
	})
	return fields{"subscriptions": subs}, nil
}

// unsubscribe: DELETE /users/me/subscriptions — removes the requester's subscriptions, or
// the principals', to the named channels.
func (s *Server) unsubscribe(c *call) (fields, error) {
	if !c.p.Has("subscriptions") {
		c.p.Fail(apierr.Missing("subscriptions"))
	}
	names := stringList(c, "subscriptions")
	principals := s.principals(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	res, err := s.realm().Unsubscribe(c.user.ID, names, principals)
	if err != nil {
		return nil, err
	}
	return fields{"removed": res.Removed, "not_removed": res.NotRemoved}, nil
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
