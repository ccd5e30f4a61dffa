package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// addReaction: POST /messages/{message_id}/reactions.
func (s *Service) addReaction(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	req := realm.ReactionRequest{EmojiName: c.P.RequiredString("emoji_name")}
	req.EmojiCode, _ = c.P.String("emoji_code")
	req.ReactionType, _ = c.P.String("reaction_type")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().AddReaction(c.User.ID, id, req)
}

// addSubmessage: POST /submessage — widget data attached to a message.
func (s *Service) addSubmessage(c *handler.Call) (handler.Fields, error) {
	messageID := c.P.RequiredInt("message_id")
	msgType := c.P.RequiredString("msg_type")
	content := c.P.RequiredString("content")
	if err := c.Done(); err != nil {
		return nil, err
	}
	if messageID <= 0 || messageID > 1<<31-1 {
		return nil, apierr.InvalidMessage
	}
	if _, err := s.realm().AddSubmessage(c.User.ID, int(messageID), msgType, content); err != nil {
		return nil, err
	}
	return handler.Fields{}, nil
}

// removeReaction: DELETE /messages/{message_id}/reactions.
func (s *Service) removeReaction(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	var req realm.ReactionRequest
	req.EmojiName, _ = c.P.String("emoji_name")
	req.EmojiCode, _ = c.P.String("emoji_code")
	req.ReactionType, _ = c.P.String("reaction_type")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveReaction(c.User.ID, id, req)
}
