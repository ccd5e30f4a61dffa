package realm

import (
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// CreateUser adds a member account (POST /users). The role decorator ran before parsing.
func (s *AccountState) CreateUser(requesterID int, email, password, fullName string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.users[requesterID]
	if !req.CanCreateUsers && !mutation.On("create-user-without-permission") {
		return 0, apierr.BadRequest("User not authorized to create users")
	}
	if err := checkFullName(fullName); err != nil {
		return 0, err
	}
	email = strings.TrimSpace(email)
	if !validEmail(email) {
		return 0, apierr.BadRequest("Invalid email '%s'", email)
	}
	if strings.Contains(strings.SplitN(email, "@", 2)[0], "+") {
		return 0, apierr.BadRequest("Email addresses containing + are not allowed.")
	}
	if mutation.On("create-user-duplicate-email-accepted") {
		delete(s.usersByEmail, strings.ToLower(email))
	}
	if u, taken := s.usersByEmail[strings.ToLower(email)]; taken && !(mutation.On("create-user-email-of-deactivated-accepted") && !u.IsActive) {
		return 0, apierr.BadRequest("Email '%s' already in use", email)
	}
	if len(password) < 6 {
		return 0, apierr.BadRequest("The password is too weak.")
	}
	u := &User{
		ID: nextID(&s.nextUser), Email: email, FullName: strings.TrimSpace(fullName), Role: RoleMember,
		APIKey: newAPIKey(), Password: password, IsActive: true, DateJoined: s.clock.Now(), Timezone: "UTC",
		AvatarVersion: 1, EmailAddressVisibility: VisibleEveryone, PresenceEnabled: true,
	}
	s.org.applyUserDefaults(u)
	s.addUser(u)
	s.publishUserAdded(u)
	s.chans.subscribeToDefaultChannels(u)
	// The address's email invitations are revoked, as on the real server; with no invitation
	// used, it tells no referrer (no invites_changed event).
	s.revokeInvitesTo(email)
	return u.ID, nil
}
