package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/apierr"

// channelIDParam reads a required JSON channel ID; one outside the ID range names no channel.
func channelIDParam(c *call) int {
	id := c.p.RequiredInt("stream_id")
	if c.p.Err() == nil && (id <= 0 || id > 1<<31-1) {
		c.p.Fail(apierr.InvalidChannel)
	}
	return int(id)
}

// markStreamAsRead: POST /mark_stream_as_read.
func (s *Server) markStreamAsRead(c *call) (fields, error) {
	id := channelIDParam(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().MarkChannelAsRead(c.user.ID, id)
}

// markTopicAsRead: POST /mark_topic_as_read.
func (s *Server) markTopicAsRead(c *call) (fields, error) {
	id := channelIDParam(c)
	topic := c.p.RequiredString("topic_name")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().MarkTopicAsRead(c.user.ID, id, topic)
}
