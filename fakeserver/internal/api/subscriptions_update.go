package api

import (
	"regexp"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// hexColor is the form the real server takes for a subscription's color.
var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// updateSubscriptions: PATCH /users/me/subscriptions — the requester's subscriptions added
// (add: a JSON list of {"name", "color", "description"}) and removed (delete: a JSON list of
// names) in one call, all or nothing.
func (s *Service) updateSubscriptions(c *handler.Call) (handler.Fields, error) {
	remove := stringList(c, "delete")
	add := addedChannels(c)
	if c.P.Err() == nil && len(add) == 0 && len(remove) == 0 {
		c.P.Fail(apierr.BadRequest(`Nothing to do. Specify at least one of "add" or "delete".`))
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	res, err := s.realm().UpdateSubscriptions(c.User.ID, add, remove)
	if err != nil {
		return nil, err
	}
	return handler.Fields{
		"subscribed": res.Subscribed, "already_subscribed": res.AlreadySubscribed,
		"removed": res.Removed, "not_removed": res.NotRemoved,
	}, nil
}

// addedChannels reads add, naming a failing field by its path as the real server does.
func addedChannels(c *handler.Call) []realm.ChannelSpec {
	list, ok := jsonOfKind[[]any](c, "add", "a list")
	if !ok {
		return nil
	}
	specs := make([]realm.ChannelSpec, 0, len(list))
	for i, item := range list {
		obj, isObj := item.(map[string]any)
		if !isObj {
			c.P.Fail(apierr.BadRequest("add[%d] is not a dict", i))
			return nil
		}
		name, isString := obj["name"].(string)
		if !isString {
			c.P.Fail(apierr.BadRequest(`add[%d]["name"] is not a string`, i))
			return nil
		}
		sp := realm.ChannelSpec{Name: name}
		for _, field := range []struct {
			key string
			to  *string
		}{{"color", &sp.Color}, {"description", &sp.Description}} {
			v, given := obj[field.key]
			str, isString := v.(string)
			if given && !isString {
				c.P.Fail(apierr.BadRequest(`add[%d]["%s"] is not a string`, i, field.key))
				return nil
			}
			*field.to = str
		}
		if _, given := obj["color"]; given && !hexColor.MatchString(sp.Color) {
			c.P.Fail(apierr.BadRequest("add.color is not a valid hex color code"))
			return nil
		}
		specs = append(specs, sp)
	}
	return specs
}
