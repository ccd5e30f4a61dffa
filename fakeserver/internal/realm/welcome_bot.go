package realm

import (
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// MaxWelcomeMessageCustomTextLength bounds the custom text of Welcome Bot's message, in
// characters.
const MaxWelcomeMessageCustomTextLength = 8000

// SendWelcomeBotTest sends the requester Welcome Bot's direct message with the custom text new
// users would get (POST /realm/test_welcome_bot_custom_message) and returns its ID. Only the
// custom message is sent, not the rest of Welcome Bot's greeting.
func (s *State) SendWelcomeBotTest(userID int, text string) (int, error) {
	if utf8.RuneCountInString(text) > MaxWelcomeMessageCustomTextLength {
		return 0, apierr.BadRequest("welcome_message_custom_text is too long (limit: %d characters)", MaxWelcomeMessageCustomTextLength)
	}
	if text == "" {
		return 0, apierr.BadRequest("Message must not be empty")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	return s.sendAsSystemBot(s.welcomeBotUser(), u, welcomeBotCustomMessage(s.realmName(), text)).ID, nil
}

// welcomeBotCustomMessage is the custom text as Welcome Bot sends it: introduced as a message
// from the organization's administrators.
func welcomeBotCustomMessage(realmName, text string) string {
	return "A message from the administrators of " + realmName + ":\n\n" + text
}
