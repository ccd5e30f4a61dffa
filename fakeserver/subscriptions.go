package fakeserver

import (
	"encoding/json"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateSubscription: PATCH /users/me/subscriptions/{stream_id} (operation 10).
func (s *Server) updateSubscription(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	property := c.p.RequiredString("property")
	raw := c.p.RequiredString("value")
	if err := c.done(); err != nil {
		return nil, err
	}
	// The value is a boolean when it parses as one, else the string itself (a color).
	var value any = raw
	var b bool
	if json.Unmarshal([]byte(raw), &b) == nil {
		value = b
	}
	if aerr := s.realm().SetSubscriptionProperty(c.user.ID, id, property, value); aerr != nil {
		return nil, aerr
	}
	return fields{}, nil
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
	res, aerr := s.realm().Unsubscribe(c.user.ID, names, principals)
	if aerr != nil {
		return nil, aerr
	}
	return fields{"removed": res.Removed, "not_removed": res.NotRemoved}, nil
}
