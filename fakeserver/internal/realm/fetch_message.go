package realm

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// GetMessage implements fetching a single message: the view and the raw content.
func (s *MessageState) GetMessage(userID, messageID int, opts ViewOptions) (MessageView, string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[userID]
	if m := s.messages.get(messageID); mutation.On("fetch-protected-history-shown") && m != nil && !m.IsDirect && s.chans.channels[m.ChannelID].canAccess(u) {
		return s.messageView(u, m, opts), m.Content, nil
	}
	if m := s.messages.get(messageID); mutation.On("fetch-others-direct-message") && m != nil && m.IsDirect {
		return s.messageView(u, m, opts), m.Content, nil
	}
	if m := s.messages.get(messageID); mutation.On("fetch-channel-access-unchecked") && m != nil && !m.IsDirect {
		return s.messageView(u, m, opts), m.Content, nil
	}
	if mutation.On("fetch-missing-message-code") && s.messages.get(messageID) == nil {
		return MessageView{}, "", apierr.Of(apierr.KindInvalid, "NOT_FOUND", "Invalid message(s)")
	}
	m, err := s.accessibleMessage(u, messageID)
	if err != nil {
		return MessageView{}, "", err
	}
	if mutation.On("raw-content-as-first-sent") {
		return s.messageView(u, m, opts), contentAsSent(m), nil
	}
	if mutation.On("raw-content-rendered") {
		return s.messageView(u, m, opts), m.Rendered, nil
	}
	return s.messageView(u, m, opts), m.Content, nil
}
