package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// addReaction: POST /messages/{message_id}/reactions.
func (s *Server) addReaction(c *call) (fields, error) {
	id, err := c.pathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	req := realm.ReactionRequest{EmojiName: c.p.RequiredString("emoji_name")}
	req.EmojiCode, _ = c.p.String("emoji_code")
	req.ReactionType, _ = c.p.String("reaction_type")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().AddReaction(c.user.ID, id, req)
}

// addSubmessage: POST /submessage — widget data attached to a message.
func (s *Server) addSubmessage(c *call) (fields, error) {
	messageID := c.p.RequiredInt("message_id")
	msgType := c.p.RequiredString("msg_type")
	content := c.p.RequiredString("content")
	if err := c.done(); err != nil {
		return nil, err
	}
	if messageID <= 0 || messageID > 1<<31-1 {
		return nil, apierr.InvalidMessage
	}
	if _, err := s.realm().AddSubmessage(c.user.ID, int(messageID), msgType, content); err != nil {
		return nil, err
	}
	return fields{}, nil
}

// removeReaction: DELETE /messages/{message_id}/reactions.
func (s *Server) removeReaction(c *call) (fields, error) {
	id, err := c.pathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	var req realm.ReactionRequest
	req.EmojiName, _ = c.p.String("emoji_name")
	req.EmojiCode, _ = c.p.String("emoji_code")
	req.ReactionType, _ = c.p.String("reaction_type")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().RemoveReaction(c.user.ID, id, req)
}
