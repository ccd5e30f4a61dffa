package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

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
