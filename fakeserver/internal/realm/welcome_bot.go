package realm

import (
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// SendWelcomeBotTest sends the requester Welcome Bot's direct message with the custom text new
// users would get (POST /realm/test_welcome_bot_custom_message) and returns its ID. Only the
// custom message is sent, not the rest of Welcome Bot's greeting.
func (s *MessageState) SendWelcomeBotTest(userID int, text string) (int, error) {
	if err := CheckWelcomeTextLength(text); err != nil {
		return 0, err
	}
	if text == "" {
		return 0, apierr.BadRequest("Message must not be empty")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	return s.sendAsSystemBot(s.welcomeBotUser(), u, welcomeBotCustomMessage(s.org.realmName(), text)).ID, nil
}

// welcomeBotCustomMessage is the custom text as Welcome Bot sends it: introduced as a message
// from the organization's administrators.
func welcomeBotCustomMessage(realmName, text string) string {
	return "A message from the administrators of " + realmName + ":\n\n" + text
}

// CheckWelcomeTextLength refuses a Welcome Bot custom text over the real server's limit
// (MaxWelcomeTextLength), in the test message as in invitations.
func CheckWelcomeTextLength(text string) error {
	if utf8.RuneCountInString(text) > MaxWelcomeTextLength {
		return apierr.BadRequest("welcome_message_custom_text is too long (limit: %d characters)", MaxWelcomeTextLength)
	}
	return nil
}
