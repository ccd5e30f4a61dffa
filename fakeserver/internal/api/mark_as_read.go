package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// channelIDParam reads a required JSON channel ID; one outside the ID range names no channel.
func channelIDParam(c *handler.Call) int {
	id := c.P.RequiredInt("stream_id")
	if c.P.Err() == nil && (id <= 0 || id > 1<<31-1) {
		c.P.Fail(apierr.InvalidChannel)
	}
	return int(id)
}

// markStreamAsRead: POST /mark_stream_as_read.
func (s *Service) markStreamAsRead(c *handler.Call) (handler.Fields, error) {
	id := channelIDParam(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().MarkChannelAsRead(c.User.ID, id)
}

// markTopicAsRead: POST /mark_topic_as_read.
func (s *Service) markTopicAsRead(c *handler.Call) (handler.Fields, error) {
	id := channelIDParam(c)
	topic := c.P.RequiredString("topic_name")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().MarkTopicAsRead(c.User.ID, id, topic)
}
