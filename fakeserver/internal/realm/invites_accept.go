package realm

import (
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// Accepting an invitation: the real server's sign-up form, which no API offers, stands in the
// fake's control API. The new account gets what the invitation says: its role, its channels
// (and the organization's default channels when it asks for them), its groups.

// Acceptance names the invitation a new user accepts: an email invitation by the address it
// was sent to, or an invitation link by its URL, with the address the account gets.
type Acceptance struct {
	Email, LinkURL, FullName string
}

// Joined is the account made by accepting an invitation.
type Joined struct {
	UserID int
	APIKey string
}

// AcceptInvite makes the account an unexpired invitation offers. The address's email
// invitations are used up or revoked; an invitation link stays for others.
func (s *AccountState) AcceptInvite(a Acceptance) (Joined, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := checkFullName(a.FullName); err != nil {
		return Joined{}, err
	}
	email := strings.TrimSpace(a.Email)
	if !validEmail(email) {
		return Joined{}, apierr.BadRequest("Invalid email '%s'", email)
	}
	if _, taken := s.usersByEmail[strings.ToLower(email)]; taken {
		return Joined{}, apierr.BadRequest("Email '%s' already in use", email)
	}
	inv := s.pendingInvite(email, a.LinkURL)
	if inv == nil {
		return Joined{}, apierr.BadRequest("No unexpired invitation matches")
	}
	u := &User{
		ID: nextID(&s.nextUser), Email: email, FullName: strings.TrimSpace(a.FullName), Role: inv.invitedAs,
		APIKey: newAPIKey(), IsActive: true, DateJoined: s.clock.Now(), Timezone: "UTC",
		AvatarVersion: 1, EmailAddressVisibility: VisibleEveryone, PresenceEnabled: true,
	}
	s.org.applyUserDefaults(u)
	s.addUser(u)
	s.publishUserAdded(u)
	channels := slices.Clone(inv.channelIDs)
	if inv.defaultChannels {
		channels = append(channels, s.chans.defaultChannels...)
	}
	slices.Sort(channels)
	for _, id := range slices.Compact(channels) {
		if ch := s.chans.channels[id]; ch != nil && !ch.Archived && s.chans.subscribe(ch, u) {
			s.chans.publishSubscriptionsAdded(ch, []int{u.ID})
		}
	}
	for _, id := range inv.groupIDs {
		if g := s.grps.groups[id]; g != nil && !g.Deactivated && !slices.Contains(g.Members, u.ID) {
			s.grps.applyGroupChange(g, []int{u.ID}, nil, nil, nil)
		}
	}
	// The invitation's own Welcome Bot text reaches the new user as a direct message from
	// Welcome Bot, as the test endpoint sends it (the rest of the greeting is not sent).
	if t := inv.welcomeText; t != nil && *t != "" {
		s.msgs.sendAsSystemBot(s.msgs.welcomeBotUser(), u, welcomeBotCustomMessage(s.org.realmName(), *t))
	}
	// The account uses its invitation up and, as on the real server, revokes every other
	// invitation to its address; an invitation link stays for others.
	if s.revokeInvitesTo(email) {
		s.publishInvitesChanged(s.users[inv.referrerID])
	}
	return Joined{UserID: u.ID, APIKey: u.APIKey}, nil
}

// pendingInvite is the unexpired invitation a link URL names, or else the newest unexpired
// email invitation of the address (one address may have several, each with its own role and
// channels: the newest, not whichever the map gives first).
func (s *AccountState) pendingInvite(email, linkURL string) *invite {
	now := s.Now()
	for _, inv := range s.multiuse {
		if linkURL != "" && s.inviteLink(inv) == linkURL && !inv.revoked && !inv.expired(now) {
			return inv
		}
	}
	if linkURL != "" {
		return nil
	}
	var newest *invite
	for _, inv := range s.invites {
		if strings.EqualFold(inv.email, email) && !inv.expired(now) && (newest == nil || inv.id > newest.id) {
			newest = inv
		}
	}
	return newest
}

// revokeInvitesTo drops every email invitation to an address that now has an account, as the
// real server does for each new account, and tells whether there was one.
func (s *AccountState) revokeInvitesTo(email string) bool {
	revoked := false
	for id, inv := range s.invites {
		if strings.EqualFold(inv.email, email) {
			delete(s.invites, id)
			revoked = true
		}
	}
	return revoked
}
