package realm

import (
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fixtures"
)

// Role values as the API documents them.
const (
	RoleOwner     = 100
	RoleAdmin     = 200
	RoleModerator = 300
	RoleMember    = 400
	RoleGuest     = 600
)

// Email visibility values of the real server.
const (
	VisibleEveryone   = 1
	VisibleMembers    = 2
	VisibleAdmins     = 3
	VisibleNobody     = 4
	VisibleModerators = 5
)

// User is an account of the realm: a human or a bot.
type User struct {
	ID                     int
	Email                  string // the real (delivery) address; also the login name
	FullName               string
	Role                   int
	APIKey                 string
	Password               string
	IsBot                  bool
	BotType                int
	BotOwnerID             int
	IsActive               bool
	DateJoined             time.Time
	Timezone               string
	AvatarVersion          int
	EmailAddressVisibility int
	CanCreateUsers         bool
	CanChangeUserEmails    bool
	// HasVCallToken is whether the user holds a token of the external video-call integration,
	// which the user obtains from the provider, outside this API.
	HasVCallToken bool
}

var fixtureRoles = map[string]int{
	fixtures.RoleOwner: RoleOwner, fixtures.RoleAdmin: RoleAdmin, fixtures.RoleModerator: RoleModerator,
	fixtures.RoleMember: RoleMember, fixtures.RoleGuest: RoleGuest, fixtures.RoleBot: RoleMember,
}

func userFromFixture(f fixtures.User, joined time.Time) *User {
	u := &User{
		ID: f.ID, Email: f.Email, FullName: f.FullName, Role: fixtureRoles[f.Role], APIKey: f.APIKey,
		Password: f.Password, IsBot: f.Role == fixtures.RoleBot, IsActive: !f.Deactivated, DateJoined: joined,
		Timezone: f.Timezone, AvatarVersion: 1, EmailAddressVisibility: f.EmailAddressVisibility,
		CanCreateUsers: f.CanCreateUsers, CanChangeUserEmails: f.CanChangeUserEmails,
	}
	if u.IsBot {
		u.BotType, u.BotOwnerID = f.BotType, f.BotOwnerID
	}
	return u
}

func (s *State) addUser(u *User) {
	s.users[u.ID] = u
	s.usersByEmail[strings.ToLower(u.Email)] = u
	s.usersByKey[u.APIKey] = u
	if u.ID > s.next.user {
		s.next.user = u.ID
	}
}

// IsAdmin reports whether the user is an administrator or owner.
func (u *User) IsAdmin() bool { return u.Role <= RoleAdmin }

// IsModerator reports whether the user is a moderator, administrator or owner.
func (u *User) IsModerator() bool { return u.Role <= RoleModerator }

// IsGuest reports whether the user is a guest.
func (u *User) IsGuest() bool { return u.Role == RoleGuest }

var apiKeyPattern = regexp.MustCompile(`^[A-Za-z0-9]{32}$`)

// Authenticate checks Basic credentials in the real server's order and with its messages.
// It returns a copy of the user so that callers never read shared state unlocked.
func (s *State) Authenticate(email, apiKey string) (User, *apierr.Error) {
	if !apiKeyPattern.MatchString(apiKey) {
		return User{}, apierr.Unauthorized("Malformed API key")
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.usersByKey[apiKey]
	if !ok || !strings.EqualFold(strings.TrimSpace(email), u.Email) {
		return User{}, apierr.Unauthorized("Invalid API key")
	}
	if !u.IsActive {
		return User{}, apierr.Unauthorized("Account is deactivated")
	}
	return *u, nil
}

// PasswordLogin exchanges an email and password for the user (POST /fetch_api_key).
func (s *State) PasswordLogin(email, password string) (User, *apierr.Error) {
	if !strings.Contains(email, "@") {
		return User{}, apierr.BadRequest("Enter a valid email address.")
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.usersByEmail[strings.ToLower(strings.TrimSpace(email))]
	if !ok || u.IsBot || u.Password == "" || u.Password != password {
		return User{}, apierr.New(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")
	}
	if !u.IsActive {
		return User{}, apierr.New(401, "USER_DEACTIVATED", "Account is deactivated")
	}
	return *u, nil
}

// dummyEmail is the address shown in place of a real one the viewer may not see.
func (s *State) dummyEmail(u *User) string { return fmt.Sprintf("user%d@%s", u.ID, s.settings.Host) }

// canSeeRealEmail applies the target's email visibility to the viewer.
func canSeeRealEmail(viewer, target *User) bool {
	if viewer.ID == target.ID || target.IsBot {
		return true
	}
	switch target.EmailAddressVisibility {
	case VisibleEveryone:
		return true
	case VisibleMembers:
		return !viewer.IsGuest()
	case VisibleModerators:
		return viewer.IsModerator()
	case VisibleAdmins:
		return viewer.IsAdmin()
	default:
		return false
	}
}

// apiEmail is the address the API uses for target: the real one only when everyone may see
// it, as on the real server, so that the same user has the same API email for everybody.
func (s *State) apiEmail(target *User) string {
	if target.IsBot || target.EmailAddressVisibility == VisibleEveryone {
		return target.Email
	}
	return s.dummyEmail(target)
}

// deliveryEmail is the real address if viewer may see it, else nil.
func deliveryEmail(viewer, target *User) any {
	if canSeeRealEmail(viewer, target) {
		return target.Email
	}
	return nil
}

// avatarURL is a gravatar-style URL derived from the real address, as the real server's default.
func avatarURL(u *User) string {
	sum := md5.Sum([]byte(strings.ToLower(u.Email)))
	return fmt.Sprintf("https://secure.gravatar.com/avatar/%s?d=identicon&version=%d", hex.EncodeToString(sum[:]), u.AvatarVersion)
}

// UserView is the API's User object as one viewer sees it.
type UserView struct {
	UserID         int    `json:"user_id"`
	DeliveryEmail  any    `json:"delivery_email"`
	Email          string `json:"email"`
	FullName       string `json:"full_name"`
	DateJoined     string `json:"date_joined"`
	IsActive       bool   `json:"is_active"`
	IsOwner        bool   `json:"is_owner"`
	IsAdmin        bool   `json:"is_admin"`
	IsGuest        bool   `json:"is_guest"`
	IsBot          bool   `json:"is_bot"`
	BotType        any    `json:"bot_type"`
	BotOwnerID     any    `json:"bot_owner_id,omitempty"`
	Role           int    `json:"role"`
	Timezone       string `json:"timezone"`
	AvatarURL      any    `json:"avatar_url"`
	AvatarVersion  int    `json:"avatar_version"`
	IsImportedStub bool   `json:"is_imported_stub"`
}

func (s *State) userView(viewer, u *User) UserView {
	v := UserView{
		UserID: u.ID, DeliveryEmail: deliveryEmail(viewer, u), Email: s.apiEmail(u), FullName: u.FullName,
		DateJoined: u.DateJoined.Format(time.RFC3339), IsActive: u.IsActive, IsOwner: u.Role == RoleOwner,
		IsAdmin: u.IsAdmin(), IsGuest: u.IsGuest(), IsBot: u.IsBot, Role: u.Role, Timezone: u.Timezone,
		AvatarURL: avatarURL(u), AvatarVersion: u.AvatarVersion,
	}
	if u.IsBot {
		v.BotType, v.BotOwnerID = u.BotType, u.BotOwnerID
		if u.BotOwnerID == 0 {
			v.BotOwnerID = nil
		}
	}
	return v
}

// UserView returns target as viewer sees it.
func (s *State) UserView(viewerID, targetID int) (UserView, *apierr.Error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	viewer, target := s.users[viewerID], s.users[targetID]
	if target == nil {
		return UserView{}, apierr.NoSuchUser
	}
	return s.userView(viewer, target), nil
}

// Users returns every user as viewer sees them, in ID order.
func (s *State) Users(viewerID int) []UserView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	viewer := s.users[viewerID]
	ids := slices.Sorted(maps.Keys(s.users))
	out := make([]UserView, 0, len(ids))
	for _, id := range ids {
		out = append(out, s.userView(viewer, s.users[id]))
	}
	return out
}

var roleValues = map[int]bool{RoleOwner: true, RoleAdmin: true, RoleModerator: true, RoleMember: true, RoleGuest: true}

// CreateUser adds a member account (POST /users). The role decorator ran before parsing.
func (s *State) CreateUser(requesterID int, email, password, fullName string) (int, *apierr.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.users[requesterID]
	if !req.CanCreateUsers {
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
	if _, taken := s.usersByEmail[strings.ToLower(email)]; taken {
		return 0, apierr.BadRequest("Email '%s' already in use", email)
	}
	if len(password) < 6 {
		return 0, apierr.BadRequest("The password is too weak.")
	}
	u := &User{
		ID: nextID(&s.next.user), Email: email, FullName: strings.TrimSpace(fullName), Role: RoleMember,
		APIKey: newAPIKey(), Password: password, IsActive: true, DateJoined: s.clock.Now(), Timezone: "UTC",
		AvatarVersion: 1, EmailAddressVisibility: VisibleEveryone,
	}
	s.addUser(u)
	s.publishUserAdded(u)
	return u.ID, nil
}

// CreateBot adds a generic bot owned by the requester (POST /bots).
func (s *State) CreateBot(ownerID int, fullName, shortName string, botType int) (User, *apierr.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := checkFullName(fullName); err != nil {
		return User{}, err
	}
	if !regexp.MustCompile(`^[a-z0-9._-]+$`).MatchString(shortName) {
		return User{}, apierr.BadRequest("Bad name or username")
	}
	if botType < 1 || botType > 4 {
		return User{}, apierr.BadRequest("Invalid bot_type")
	}
	email := fmt.Sprintf("%s-bot@%s", shortName, s.settings.Host)
	if !validEmail(email) {
		return User{}, apierr.BadRequest("Bad name or username")
	}
	if _, taken := s.usersByEmail[strings.ToLower(email)]; taken {
		return User{}, apierr.BadRequest("Username already in use")
	}
	u := &User{
		ID: nextID(&s.next.user), Email: email, FullName: strings.TrimSpace(fullName), Role: RoleMember,
		APIKey: newAPIKey(), IsBot: true, BotType: botType, BotOwnerID: ownerID, IsActive: true,
		DateJoined: s.clock.Now(), Timezone: "UTC", AvatarVersion: 1, EmailAddressVisibility: VisibleEveryone,
	}
	s.addUser(u)
	s.publishUserAdded(u)
	return *u, nil
}

// UserUpdate is a change to another user's account (PATCH /users/{id}); nil fields stay.
type UserUpdate struct {
	FullName *string
	Role     *int
}

// UpdateUser applies an administrator's change with the real server's permission rules,
// all checks first, so a refused change leaves the account untouched.
func (s *State) UpdateUser(requesterID, targetID int, up UserUpdate) *apierr.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, target := s.users[requesterID], s.users[targetID]
	if target == nil {
		return apierr.NoSuchUser
	}
	if !req.IsAdmin() {
		return apierr.BadRequest("Insufficient permission")
	}
	name := target.FullName
	if up.FullName != nil && strings.TrimSpace(*up.FullName) != "" {
		if err := checkFullName(*up.FullName); err != nil {
			return err
		}
		name = strings.TrimSpace(*up.FullName)
	}
	role := target.Role
	if up.Role != nil {
		role = *up.Role
		if !roleValues[role] {
			return apierr.BadRequest("Invalid role")
		}
		if (role == RoleOwner || target.Role == RoleOwner) && role != target.Role && req.Role != RoleOwner {
			return apierr.MustBeOwner
		}
		if target.Role == RoleOwner && role != RoleOwner && s.activeHumanOwners() == 1 {
			return apierr.BadRequest("The owner permission cannot be removed from the only organization owner.")
		}
	}
	if name != target.FullName {
		target.FullName = name
		s.publishUserUpdate(target, map[string]any{"full_name": name})
	}
	if role != target.Role {
		target.Role = role
		s.publishUserUpdate(target, map[string]any{"role": role})
	}
	return nil
}

// SetEmailVisibility changes who may see the user's real email address (PATCH /settings).
func (s *State) SetEmailVisibility(userID, visibility int) *apierr.Error {
	if visibility < VisibleEveryone || visibility > VisibleModerators {
		return apierr.BadRequest("Invalid email_address_visibility")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	oldEmail := s.apiEmail(u)
	u.EmailAddressVisibility = visibility
	s.publish(events.Event{"type": "user_settings", "op": "update", "property": "email_address_visibility", "value": visibility}, u.ID)
	if email := s.apiEmail(u); email != oldEmail {
		s.publishUserUpdate(u, map[string]any{"new_email": email})
	}
	return nil
}

func (s *State) activeHumanOwners() int {
	n := 0
	for _, u := range s.users {
		if u.Role == RoleOwner && u.IsActive && !u.IsBot {
			n++
		}
	}
	return n
}

func checkFullName(name string) *apierr.Error {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return apierr.BadRequest("Name too short!")
	case utf8.RuneCountInString(name) > 60:
		return apierr.BadRequest("Name too long!")
	case strings.ContainsAny(name, "*`\\>\"@\n\r\t"):
		return apierr.BadRequest("Invalid characters in name!")
	}
	return nil
}

var emailPattern = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

// validEmail accepts what fits the address syntax and the 254-character limit of RFC 5321.
func validEmail(e string) bool { return len(e) <= 254 && emailPattern.MatchString(e) }

const keyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// newAPIKey returns a random 32-character key. Keys are the one thing not reproducible:
// a guessable key would let one test's user act as another's.
func newAPIKey() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = keyAlphabet[int(b[i])%len(keyAlphabet)]
	}
	return string(b)
}

// SetVCallToken records whether the user holds a video-call token and tells the user's
// clients with a has_vcall_token event.
func (s *State) SetVCallToken(userID int, has bool) *apierr.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	if u == nil {
		return apierr.NoSuchUser
	}
	u.HasVCallToken = has
	s.publish(events.Event{"type": "has_vcall_token", "value": has}, u.ID)
	return nil
}
