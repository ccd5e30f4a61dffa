package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// muteTopic: PATCH /users/me/subscriptions/muted_topics (operation 3, deprecated).
func (s *Service) muteTopic(c *handler.Call) (handler.Fields, error) {
	streamID, hasID := c.P.Int("stream_id")
	name, hasName := c.P.String("stream")
	topic := c.P.RequiredString("topic")
	op := "add"
	if !mutation.On("mute-topic-op-defaults-to-add") || c.P.Has("op") {
		op = c.P.RequiredEnum("op", "add", "remove")
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	ref := realm.ChannelRef{Name: name}
	switch {
	case hasID && hasName && !mutation.On("mute-both-channel-refs-accepted"):
		return nil, apierr.BadRequest("Unsupported parameter combination: stream_id, stream").With("parameters", "stream_id, stream")
	case !hasID && !hasName:
		return nil, apierr.BadRequest("Missing 'stream_id' argument")
	case hasID:
		if streamID <= 0 || streamID > 1<<31-1 {
			return nil, apierr.InvalidChannel
		}
		ref.ID = int(streamID)
	case name == "" || mutation.On("mute-by-channel-name-refused"):
		return nil, apierr.BadRequest("Invalid channel name ''")
	}
	return handler.Fields{}, s.realm().MuteTopic(c.User.ID, ref, topic, op == "add")
}
