package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// setTyping: POST /typing — the user started or stopped composing a direct message (to:
// user IDs) or a channel message (stream_id and topic).
func (s *Service) setTyping(c *handler.Call) (handler.Fields, error) {
	types := s.messageTypes()
	kind := c.P.Enum("type", types[0], types...)
	op := c.P.RequiredEnum("op", "start", "stop")
	to, hasTo := c.P.IntList("to")
	streamID, hasStream := c.P.Int("stream_id")
	topic, hasTopic := c.P.String("topic")
	if err := c.Done(); err != nil {
		return nil, err
	}
	start := op == "start"
	if kind == "stream" || kind == "channel" {
		switch {
		case !hasStream:
			return nil, apierr.BadRequest("Missing 'stream_id' argument")
		case !hasTopic:
			return nil, apierr.BadRequest("Missing topic")
		case streamID <= 0 || streamID > 1<<31-1:
			return nil, apierr.InvalidChannel
		}
		if err := s.realm().SetChannelTyping(c.User.ID, int(streamID), topic, start); err != nil {
			return nil, err
		}
		return handler.Fields{}, nil
	}
	if !hasTo {
		return nil, apierr.BadRequest("Missing 'to' argument")
	}
	ids := make([]int, 0, len(to))
	for _, id := range to {
		if id <= 0 || id > 1<<31-1 {
			return nil, apierr.BadRequest("Invalid user ID %d", id)
		}
		ids = append(ids, int(id))
	}
	return handler.Fields{}, s.realm().SetDirectTyping(c.User.ID, ids, start)
}
