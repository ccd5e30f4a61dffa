package api

import (
	"encoding/json"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// subscribe: POST /users/me/subscriptions — creates missing channels and subscribes.
func (s *Service) subscribe(c *handler.Call) (handler.Fields, error) {
	specs := channelSpecs(c)
	opts := realm.SubscribeOptions{InviteOnly: c.P.Bool("invite_only", false)}
	opts.HistoryPublic = optionalBool(c, "history_public_to_subscribers")
	if s.realm().AtLeast(realm.LevelChannelFolders) {
		opts.FolderID = folderOrNone(c)
	}
	principals := s.principals(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	opts.Principals = principals
	res, err := s.realm().Subscribe(c.User.ID, specs, opts)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"subscribed": res.Subscribed, "already_subscribed": res.AlreadySubscribed}, nil
}

// channelSpecs reads `subscriptions`: a JSON list of {"name", "description"} objects.
func channelSpecs(c *handler.Call) []realm.ChannelSpec {
	if !c.P.Has("subscriptions") {
		c.P.Fail(apierr.Missing("subscriptions"))
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
			c.P.Fail(apierr.BadRequest(`subscriptions[%d]["name"] is not a string`, i))
			return nil
		}
		desc, isString := obj["description"].(string)
		if _, given := obj["description"]; given && !isString {
			c.P.Fail(apierr.BadRequest(`subscriptions[%d]["description"] is not a string`, i))
			return nil
		}
		specs = append(specs, realm.ChannelSpec{Name: name, Description: desc})
	}
	if len(specs) == 0 {
		c.P.Fail(apierr.BadRequest("Nothing to do. Specify at least one channel."))
	}
	return specs
}

// principals reads the optional JSON list of user IDs or emails to subscribe.
func (s *Service) principals(c *handler.Call) []int {
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
				c.P.Fail(apierr.BadRequest("principals contains an invalid user ID"))
				return nil
			}
			ids = append(ids, int(id))
		case string:
			id, found := s.realm().UserIDByEmail(c.User.ID, p)
			if !found {
				c.P.Fail(apierr.BadRequest("No such user"))
				return nil
			}
			ids = append(ids, id)
		default:
			c.P.Fail(apierr.BadRequest("principals is not a list of user IDs or emails"))
			return nil
		}
	}
	return ids
}

// getSubscriptions: GET /users/me/subscriptions — the requester's subscriptions and settings.
func (s *Service) getSubscriptions(c *handler.Call) (handler.Fields, error) {
	withSubscribers := c.P.Bool("include_subscribers", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	subs := s.realm().Subscriptions(c.User.ID, realm.SubscriptionOptions{
		IncludeSubscribers: withSubscribers, NotificationSettingsNull: true, IncludeArchived: true,
	})
	return handler.Fields{"subscriptions": subs}, nil
}

// unsubscribe: DELETE /users/me/subscriptions — removes the requester's subscriptions, or
// the principals', to the named channels.
func (s *Service) unsubscribe(c *handler.Call) (handler.Fields, error) {
	if !c.P.Has("subscriptions") {
		c.P.Fail(apierr.Missing("subscriptions"))
	}
	names := stringList(c, "subscriptions")
	principals := s.principals(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	res, err := s.realm().Unsubscribe(c.User.ID, names, principals)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"removed": res.Removed, "not_removed": res.NotRemoved}, nil
}

// getSubscriptionStatus: GET /users/{user_id}/subscriptions/{stream_id}.
func (s *Service) getSubscriptionStatus(c *handler.Call) (handler.Fields, error) {
	userID, err := c.PathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	channelID, err := c.PathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	subscribed, err := s.realm().IsSubscribed(c.User.ID, userID, channelID)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"is_subscribed": subscribed}, nil
}
