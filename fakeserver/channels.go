package fakeserver

import (
	"encoding/json"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getTopics: GET /users/me/{stream_id}/topics (operation 12).
func (s *Server) getTopics(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	allowEmpty := c.p.Bool("allow_empty_topic_name", false)
	if err := c.done(); err != nil {
		return nil, err
	}
	if mutation.On("topics-empty-name-by-default") && !c.p.Has("allow_empty_topic_name") {
		allowEmpty = true
	}
	topics, err := s.realm().Topics(c.user.ID, id, allowEmpty)
	if err != nil {
		return nil, err
	}
	return fields{"topics": topics}, nil
}

// subscribe: POST /users/me/subscriptions — creates missing channels and subscribes.
func (s *Server) subscribe(c *call) (fields, error) {
	specs := channelSpecs(c)
	opts := realm.SubscribeOptions{InviteOnly: c.p.Bool("invite_only", false)}
	opts.HistoryPublic = optionalBool(c, "history_public_to_subscribers")
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
