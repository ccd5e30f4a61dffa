package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getMessage: GET /messages/{message_id} (operation 6).
func (s *Server) getMessage(c *call) (messageReply, error) {
	id, err := c.pathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return messageReply{}, err
	}
	opts := realm.ViewOptions{
		ApplyMarkdown:       c.p.Bool("apply_markdown", true),
		AllowEmptyTopicName: c.p.Bool("allow_empty_topic_name", false),
	}
	if err := c.done(); err != nil {
		return messageReply{}, err
	}
	if mutation.On("fetch-allow-empty-topic-ignored") {
		opts.AllowEmptyTopicName = false
	}
	if mutation.On("apply-markdown-default-false") && !c.p.Has("apply_markdown") {
		opts.ApplyMarkdown = false
	}
	msg, raw, err := s.realm().GetMessage(c.user.ID, id, opts)
	if err != nil {
		return messageReply{}, err
	}
	if !s.realm().AtLeast(realm.LevelWholeMessage) {
		return messageReply{RawContent: raw}, nil
	}
	return messageReply{Message: &msg, RawContent: raw}, nil
}

// messageReply is the reply of GET /messages/{message_id}.
type messageReply struct {
	Message    *realm.MessageView `json:"message,omitempty"`
	RawContent string             `json:"raw_content"`
}
