package realm

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Email visibility values of the real server.
const (
	VisibleEveryone   = 1
	VisibleMembers    = 2
	VisibleAdmins     = 3
	VisibleNobody     = 4
	VisibleModerators = 5
)

// dummyEmail is the address shown in place of a real one the viewer may not see.
func (s *AccountState) dummyEmail(u *User) string {
	return fmt.Sprintf("user%d@%s", u.ID, s.settings.Host)
}

// emailVisibility is the email_address_visibility that applies to target: the user's own, or
// below LevelUserEmailVisibility the realm's (the real server's changelog).
func (s *AccountState) emailVisibility(target *User) int {
	if !s.atLeast(LevelUserEmailVisibility) {
		return s.org.realmEmailVisibility
	}
	return target.EmailAddressVisibility
}

// botsLikeHumans is the mutant of a server that treats a bot's email like a human's: the new
// bot takes the realm's defaults for new users, and its address follows its visibility.
func botsLikeHumans() bool { return mutation.On("bot-delivery-email-hidden") }

// canSeeRealEmail applies the target's email visibility to the viewer.
func (s *AccountState) canSeeRealEmail(viewer, target *User) bool {
	if viewer.ID == target.ID || target.IsBot && !botsLikeHumans() {
		return true
	}
	switch s.emailVisibility(target) {
	case VisibleEveryone:
		return true
	case VisibleMembers:
		return !viewer.IsGuest() || mutation.On("members-visibility-shown-to-guests")
	case VisibleModerators:
		return viewer.IsModerator() || mutation.On("moderators-visibility-shown-to-members")
	case VisibleAdmins:
		return viewer.IsAdmin() && !mutation.On("admins-visibility-hidden-from-admins")
	default:
		return false
	}
}

// apiEmail is the address the API uses for target: the real one only when everyone may see
// it, as on the real server, so that the same user has the same API email for everybody.
func (s *AccountState) apiEmail(target *User) string {
	if target.IsBot || s.emailVisibility(target) == VisibleEveryone {
		return target.Email
	}
	return s.dummyEmail(target)
}

// jsonNull is a field's explicit null (a nil value leaves an omitempty field out).
var jsonNull = json.RawMessage("null")

// deliveryEmail is the real address if viewer may see it, else null. Below
// LevelUserEmailVisibility the field is there only for the user's own object and for a
// viewer the realm's visibility gives access to every address (administrators, or moderators
// too), as the real server's changelog describes; nil leaves it out.
func (s *AccountState) deliveryEmail(viewer, target *User) any {
	if !s.atLeast(LevelUserEmailVisibility) {
		v := s.org.realmEmailVisibility
		if viewer.ID == target.ID || v == VisibleAdmins && viewer.IsAdmin() || v == VisibleModerators && viewer.IsModerator() {
			return target.Email
		}
		return nil
	}
	if s.canSeeRealEmail(viewer, target) {
		return target.Email
	}
	return jsonNull
}

var dummyEmailPattern = regexp.MustCompile(`^(?i)user([0-9]{1,10})@(.+)$`)

// userByEmail is the one lookup of a user by an email a client sent (message recipients,
// narrows, principals, users by email), as the real server's access_user_by_email: a dummy
// address of this realm names the user by ID; a real address counts only if the viewer may
// see it, so that input never confirms an address the user hides.
func (s *AccountState) userByEmail(viewer *User, email string) *User {
	email = strings.TrimSpace(email)
	if m := dummyEmailPattern.FindStringSubmatch(email); m != nil && strings.EqualFold(m[2], s.settings.Host) {
		id, err := strconv.Atoi(m[1])
		if err == nil && s.users[id] != nil {
			return s.users[id]
		}
	}
	if u := s.usersByEmail[strings.ToLower(email)]; u != nil && s.canSeeRealEmail(viewer, u) {
		return u
	}
	return nil
}

// CheckEmailVisibility refuses a value email_address_visibility does not have.
func CheckEmailVisibility(visibility int) error {
	if visibility < VisibleEveryone || visibility > VisibleModerators {
		return apierr.BadRequest("Invalid email_address_visibility")
	}
	return nil
}

// setEmailVisibility changes who may see the user's real email address (PATCH /settings): it
// keeps a checked visibility and announces it; the caller holds the lock.
func (s *AccountState) setEmailVisibility(u *User, visibility int) {
	if mutation.On("email-visibility-widening-ignored") && admitsMore(visibility, u.EmailAddressVisibility) {
		return
	}
	oldEmail := s.apiEmail(u)
	u.EmailAddressVisibility = visibility
	s.publish(events.Event{"type": "user_settings", "op": "update", "property": "email_address_visibility", "value": visibility}, u.ID)
	if email := s.apiEmail(u); email != oldEmail {
		s.publishUserUpdate(u, map[string]any{"new_email": email})
	}
}

// setRealmEmailVisibility changes the realm's email_address_visibility (PATCH /realm, below
// LevelUserEmailVisibility) to a checked value, and returns whether it changed. Every user
// whose API email changes with it is announced, as for a user's own setting. The caller holds
// the write lock. It is AccountState's, though the setting is the organization's, because
// what it changes is every user's email as others see it.
func (s *AccountState) setRealmEmailVisibility(visibility int) bool {
	if visibility == s.org.realmEmailVisibility {
		return false
	}
	before := map[int]string{}
	for id, u := range s.users {
		before[id] = s.apiEmail(u)
	}
	s.org.realmEmailVisibility = visibility
	s.publish(events.Event{"type": "realm", "op": "update", "property": "email_address_visibility", "value": visibility}, s.activeUserIDs()...)
	for _, id := range slices.Sorted(maps.Keys(s.users)) {
		if u := s.users[id]; s.apiEmail(u) != before[id] {
			s.publishUserUpdate(u, map[string]any{"new_email": s.apiEmail(u)})
		}
	}
	return true
}

// RealmEmailVisibility is the realm's email_address_visibility, for register below
// LevelUserEmailVisibility.
func (s *AccountState) RealmEmailVisibility() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.org.realmEmailVisibility
}
