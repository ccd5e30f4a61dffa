package api

import (
	"encoding/json"
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateSubscription: PATCH /users/me/subscriptions/{stream_id} (operation 10).
func (s *Service) updateSubscription(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	property := c.P.RequiredString("property")
	raw := c.P.RequiredString("value")
	if err := c.Done(); err != nil {
		return nil, err
	}
	// The value is a boolean when it parses as one, else the string itself (a color).
	var value any = raw
	var b bool
	if json.Unmarshal([]byte(raw), &b) == nil {
		value = b
	}
	if pb, err := strconv.ParseBool(raw); mutation.On("subscription-value-parsebool") && err == nil {
		value = pb
	}
	return handler.Fields{}, s.realm().SetSubscriptionProperty(c.User.ID, id, property, value)
}

// updateSubscriptionProperties: POST /users/me/subscriptions/properties — the bulk form of
// operation 10: a JSON list of {"stream_id", "property", "value"}.
func (s *Service) updateSubscriptionProperties(c *handler.Call) (handler.Fields, error) {
	if !c.P.Has("subscription_data") {
		c.P.Fail(apierr.Missing("subscription_data"))
	}
	list, _ := jsonOfKind[[]any](c, "subscription_data", "a list")
	changes := make([]realm.SubscriptionChange, 0, len(list))
	for i, item := range list {
		ch, err := subscriptionChange(i, item)
		if err != nil {
			c.P.Fail(err)
			break
		}
		changes = append(changes, ch)
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().SetSubscriptionProperties(c.User.ID, changes)
}

// subscriptionChange reads one item of subscription_data, naming the failing field by its
// JSON path as the real server does.
func subscriptionChange(i int, item any) (realm.SubscriptionChange, error) {
	obj, ok := item.(map[string]any)
	if !ok {
		return realm.SubscriptionChange{}, apierr.BadRequest("subscription_data[%d] is not a dict", i)
	}
	n, isNumber := obj["stream_id"].(json.Number)
	id, err := n.Int64()
	if !isNumber || err != nil {
		return realm.SubscriptionChange{}, apierr.BadRequest(`subscription_data[%d]["stream_id"] is not an integer`, i)
	}
	property, isString := obj["property"].(string)
	if !isString {
		return realm.SubscriptionChange{}, apierr.BadRequest(`subscription_data[%d]["property"] is not a string`, i)
	}
	value := obj["value"]
	switch value.(type) {
	case bool, string:
	default:
		return realm.SubscriptionChange{}, apierr.BadRequest(`subscription_data[%d]["value"] is not a boolean or a string`, i)
	}
	if id <= 0 || id > 1<<31-1 {
		return realm.SubscriptionChange{}, apierr.InvalidChannel
	}
	return realm.SubscriptionChange{ChannelID: int(id), Property: property, Value: value}, nil
}
