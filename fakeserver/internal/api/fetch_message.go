package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getMessage: GET /messages/{message_id} (operation 6).
func (s *Service) getMessage(c *handler.Call) (messageReply, error) {
	id, err := c.PathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return messageReply{}, err
	}
	opts := realm.ViewOptions{
		ApplyMarkdown:       c.P.Bool("apply_markdown", true),
		AllowEmptyTopicName: c.P.Bool("allow_empty_topic_name", false),
	}
	if err := c.Done(); err != nil {
		return messageReply{}, err
	}
	if mutation.On("fetch-allow-empty-topic-ignored") {
		opts.AllowEmptyTopicName = false
	}
	if mutation.On("apply-markdown-default-false") && !c.P.Has("apply_markdown") {
		opts.ApplyMarkdown = false
	}
	msg, raw, err := s.realm().GetMessage(c.User.ID, id, opts)
	if err != nil {
		return messageReply{}, err
	}
	if !s.realm().AtLeast(realm.LevelWholeMessage) {
		return messageReply{RawContent: &raw}, nil
	}
	if mutation.On("fetch-message-in-list") {
		return messageReply{Messages: []realm.MessageView{msg}, RawContent: &raw}, nil
	}
	if mutation.On("raw-content-omitted-when-markdown-given") && !opts.ApplyMarkdown {
		return messageReply{Message: &msg}, nil
	}
	return messageReply{Message: &msg, RawContent: &raw}, nil
}

// messageReply is the reply of GET /messages/{message_id}.
type messageReply struct {
	Message *realm.MessageView `json:"message,omitempty"`
	// RawContent is always given (even when empty); nil only at a mutation point.
	RawContent *string `json:"raw_content,omitempty"`
	// Messages is set by a mutation point only (fetch-message-in-list).
	Messages []realm.MessageView `json:"messages,omitempty"`
}
