package realm

import (
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// crossRealmBotEmails are the addresses of the real server's system bots
// (CROSS_REALM_BOT_EMAILS), which no account of any realm may take.
var crossRealmBotEmails = map[string]bool{
	notificationBotEmail: true, welcomeBotEmail: true, emailGatewayEmail: true,
}

// MinPasswordLength is the real server's default PASSWORD_MIN_LENGTH, in characters.
const MinPasswordLength = 6

// pendingEmail is an email change a user started and has not confirmed: the address the
// account had then, and the one it asked for.
type pendingEmail struct{ from, to string }

// checkPasswordChange refuses a password change as the real server does: the old password
// first, then the new one's strength. An account without a password has no old one to give.
func checkPasswordChange(u *User, oldPassword, newPassword string) error {
	if u.Password == "" || oldPassword != u.Password {
		return apierr.BadRequest("Wrong password!")
	}
	if utf8.RuneCountInString(newPassword) < MinPasswordLength {
		return apierr.BadRequest("New password is too weak!")
	}
	return nil
}

// checkEmailChange returns the trimmed address u may change to ("" when it is u's own, which
// changes nothing), or the real server's refusal: the realm's email_changes_disabled (which
// binds all but administrators), an invalid address, one reserved for a system bot, or one
// another account has. The caller holds the lock.
func (s *AccountState) checkEmailChange(u *User, email string) (string, error) {
	email = strings.TrimSpace(email)
	if email == u.Email {
		return "", nil
	}
	if s.emailChangesDisabled() && !u.IsAdmin() {
		return "", apierr.BadRequest("Email address changes are disabled in this organization.")
	}
	if !validEmail(email) {
		return "", apierr.BadRequest("Invalid address.")
	}
	lower := strings.ToLower(email)
	if crossRealmBotEmails[lower] {
		return "", apierr.BadRequest("Reserved for system bots.")
	}
	if other := s.usersByEmail[lower]; other != nil {
		if !other.IsActive {
			return "", apierr.BadRequest("Account has been deactivated.")
		}
		return "", apierr.BadRequest("Already has an account.")
	}
	return email, nil
}

// ConfirmEmailChange completes the email change the user started, as following the link the
// real server mails to the new address does. The change is checked again, as the real server
// does, since the realm or the address may have changed in between; a refused confirmation
// changes nothing. It returns the account's new address.
func (s *AccountState) ConfirmEmailChange(userID int) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	change, ok := s.pendingEmails[userID]
	switch {
	case u == nil || !ok:
		return "", apierr.BadRequest("No email change to confirm for user %d", userID)
	case !u.IsActive:
		return "", apierr.Of(apierr.KindUnauthenticated, "USER_DEACTIVATED", "Account is deactivated")
	case u.Email != change.from: // changed since by an owner: the link has expired
		return "", apierr.BadRequest("The email change of user %d has expired", userID)
	}
	email, err := s.checkEmailChange(u, change.to)
	if err != nil {
		return "", err
	}
	delete(s.pendingEmails, userID)
	s.changeEmail(u, email)
	return email, nil
}

// emailChangesDisabled is the organization setting email_changes_disabled (PATCH /realm); the
// caller holds the lock.
func (s *AccountState) emailChangesDisabled() bool {
	disabled, _ := s.org.realmSettingNamed("email_changes_disabled").(bool)
	return disabled
}
