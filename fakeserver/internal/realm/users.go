package realm

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
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

// User is an account of the realm: a human or a bot.
type User struct {
	ID            int
	Email         string // the real (delivery) address; also the login name
	FullName      string
	Role          int
	APIKey        string
	Password      string
	IsBot         bool
	BotType       int
	BotOwnerID    int
	IsActive      bool
	DateJoined    time.Time
	Timezone      string
	AvatarVersion int
	// avatar is avatarURL's answer, kept by addUser and changeEmail: every message view shows it.
	avatar                 string
	EmailAddressVisibility int
	CanCreateUsers         bool
	CanChangeUserEmails    bool
	// PresenceEnabled is the user's presence_enabled setting: when false the user's presence
	// is shown to nobody.
	PresenceEnabled bool
	// settings are the user's settings that differ from the built-in ones (the realm's
	// defaults when the user was created), but for the fields above.
	settings map[string]any
	// HasVCallToken is whether the user holds a token of the external video-call integration,
	// which the user obtains from the provider, outside this API.
	HasVCallToken bool
	// bot holds a bot's own settings (bot_settings.go); addUser gives each bot its own.
	bot *botSettings
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
		CanCreateUsers: f.CanCreateUsers, CanChangeUserEmails: f.CanChangeUserEmails, PresenceEnabled: true,
	}
	if u.IsBot {
		u.BotType, u.BotOwnerID = f.BotType, f.BotOwnerID
	}
	return u
}

func (s *AccountState) addUser(u *User) {
	u.avatar = gravatar(u)
	if u.IsBot && u.bot == nil {
		u.bot = newBotSettings(u)
	}
	s.users[u.ID] = u
	s.usersByEmail[strings.ToLower(u.Email)] = u
	s.usersByKey[u.APIKey] = u
	if u.ID > s.nextUser {
		s.nextUser = u.ID
	}
}

// IsAdmin reports whether the user is an administrator or owner.
func (u *User) IsAdmin() bool { return u.Role <= RoleAdmin }

// IsModerator reports whether the user is a moderator, administrator or owner.
func (u *User) IsModerator() bool { return u.Role <= RoleModerator }

// IsGuest reports whether the user is a guest.
func (u *User) IsGuest() bool { return u.Role == RoleGuest }

var (
	botShortNamePattern = regexp.MustCompile(`^[a-z0-9._-]+$`)
)

// avatarURL is a gravatar-style URL derived from the real address, as the real server's
// default: kept with the user, or computed for one the realm does not hold (the notification bot).
func avatarURL(u *User) string {
	if u.avatar != "" {
		return u.avatar
	}
	return gravatar(u)
}

func gravatar(u *User) string {
	sum := md5.Sum([]byte(strings.ToLower(u.Email)))
	const prefix = "https://secure.gravatar.com/avatar/"
	b := make([]byte, 0, len(prefix)+2*len(sum)+len("?d=identicon&version=")+4)
	b = hex.AppendEncode(append(b, prefix...), sum[:])
	return string(strconv.AppendInt(append(b, "?d=identicon&version="...), int64(u.AvatarVersion), 10))
}

// Person is the part of the User object every reply about a user carries; GET /users/me
// answers it alone (with max_message_id), without the bot fields.
type Person struct {
	UserID        int    `json:"user_id"`
	DeliveryEmail any    `json:"delivery_email,omitempty"` // see deliveryEmail
	Email         string `json:"email"`
	FullName      string `json:"full_name"`
	DateJoined    string `json:"date_joined"`
	IsActive      bool   `json:"is_active"`
	IsOwner       bool   `json:"is_owner"`
	IsAdmin       bool   `json:"is_admin"`
	IsGuest       bool   `json:"is_guest"`
	IsBot         bool   `json:"is_bot"`
	Role          int    `json:"role"`
	Timezone      string `json:"timezone"`
	AvatarURL     any    `json:"avatar_url"`
	AvatarVersion int    `json:"avatar_version"`
}

// UserView is the API's User object as one viewer sees it.
type UserView struct {
	Person
	BotType any `json:"bot_type"`
	// BotOwnerID is present for bots only: the owner's ID, or null for a bot without one.
	BotOwnerID json.RawMessage `json:"bot_owner_id,omitempty"`
	// IsImportedStub is false for every user of the fake (none is imported); absent below
	// LevelImportedStub, where the real server did not send it.
	IsImportedStub *bool `json:"is_imported_stub,omitempty"`
	// IsSystemBot is present, true, for the real server's system bots only.
	IsSystemBot bool `json:"is_system_bot,omitempty"`
	// IsDeleted is present only when true, for a user deleted permanently: the fake deletes
	// none, so it is never set (a mutation point sets it).
	IsDeleted *bool `json:"is_deleted,omitempty"`
	// ProfileData holds the custom profile field values (a map, empty when none), only when
	// the client asked for them.
	ProfileData any `json:"profile_data,omitempty"`
}

func (s *AccountState) userView(viewer, u *User) UserView {
	v := UserView{Person: Person{
		UserID: u.ID, DeliveryEmail: s.deliveryEmail(viewer, u), Email: s.apiEmail(u), FullName: u.FullName,
		DateJoined: u.DateJoined.Format(time.RFC3339), IsActive: u.IsActive, IsOwner: u.Role == RoleOwner,
		IsAdmin: u.IsAdmin(), IsGuest: u.IsGuest(), IsBot: u.IsBot, Role: u.Role, Timezone: u.Timezone,
		AvatarURL: avatarURL(u), AvatarVersion: u.AvatarVersion,
	}}
	if mutation.On("delivery-email-shown-to-all") {
		v.DeliveryEmail = u.Email
	}
	if s.atLeast(LevelImportedStub) {
		v.IsImportedStub = new(bool)
		if mutation.On("every-user-imported-stub") {
			*v.IsImportedStub = true
		}
	}
	if u.IsBot {
		v.BotType, v.BotOwnerID = u.BotType, json.RawMessage("null")
		if u.BotOwnerID != 0 {
			v.BotOwnerID = json.RawMessage(strconv.Itoa(u.BotOwnerID))
		}
		v.IsSystemBot = crossRealmBotEmails[u.Email]
	}
	if mutation.On("is-deleted-false-for-deactivated") && !u.IsActive {
		v.IsDeleted = new(bool)
	}
	mutateUserView(&v, u)
	return v
}

// UserView returns target as viewer sees it.
func (s *AccountState) UserView(viewerID, targetID int) (UserView, error) {
	return s.UserViewWith(viewerID, targetID, UserFetch{})
}

// UserFetch is what a fetch of user objects asks for (GET /users, GET /users/{id}): each
// user's custom profile field values, and under client_gravatar a null avatar URL wherever
// the client computes it itself.
type UserFetch struct{ Profile, ClientGravatar bool }

// clientGravatar nulls v's avatar URL where a client_gravatar client computes it, as the real
// server does: every avatar of the fake is a gravatar, computed from the real email, so
// wherever the viewer sees that email.
func (s *AccountState) clientGravatar(v *UserView, viewer, u *User, on bool) {
	if on && s.canSeeRealEmail(viewer, u) {
		v.AvatarURL = nil
	}
}

// UserViewWith returns target as viewer sees it, as f asks. The system bots, found by ID too
// as on the real server, have no custom profile fields and avatars of their own.
func (s *AccountState) UserViewWith(viewerID, targetID int, f UserFetch) (UserView, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	viewer, target := s.users[viewerID], s.users[targetID]
	if target == nil {
		if b := s.systemBotByID(targetID); b != nil {
			return s.userView(viewer, b), nil
		}
		return UserView{}, apierr.NoSuchUser
	}
	v := s.userView(viewer, target)
	if f.Profile {
		v.ProfileData = s.profileData(target)
	}
	s.clientGravatar(&v, viewer, target, f.ClientGravatar)
	return v, nil
}

// Users returns every user as viewer sees them, in ID order.
func (s *AccountState) Users(viewerID int) []UserView { return s.UsersWith(viewerID, UserFetch{}) }

// UsersWith returns every user as viewer sees them, in ID order, as f asks.
func (s *AccountState) UsersWith(viewerID int, f UserFetch) []UserView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	viewer := s.users[viewerID]
	ids := slices.Sorted(maps.Keys(s.users))
	out := make([]UserView, 0, len(ids))
	for _, id := range ids {
		v := s.userView(viewer, s.users[id])
		if f.Profile {
			v.ProfileData = s.profileData(s.users[id])
		}
		s.clientGravatar(&v, viewer, s.users[id], f.ClientGravatar)
		out = append(out, v)
	}
	return out
}

var roleValues = map[int]bool{RoleOwner: true, RoleAdmin: true, RoleModerator: true, RoleMember: true, RoleGuest: true}

// CreateBot adds a generic bot owned by the requester (POST /bots).
// maxBots bounds the active bots one user owns (server configuration), so that no member can
// multiply their quotas, and the fake's memory, by creating bots without end.
func (s *AccountState) CreateBot(ownerID int, nb NewBot, maxBots int) (User, error) {
	fullName, shortName, botType := nb.FullName, nb.ShortName, nb.BotType
	s.mu.Lock()
	defer s.mu.Unlock()
	owned := 0
	for _, u := range s.users {
		if u.IsBot && u.IsActive && u.BotOwnerID == ownerID {
			owned++
		}
	}
	if owned >= maxBots {
		return User{}, apierr.BadRequest("You may own at most %d active bots on this server.", maxBots)
	}
	if err := checkFullName(fullName); err != nil {
		return User{}, err
	}
	if !botShortNamePattern.MatchString(shortName) {
		return User{}, apierr.BadRequest("Bad name or username")
	}
	if botType < 1 || botType > 4 {
		return User{}, apierr.BadRequest("Invalid bot_type")
	}
	if nb.ServiceName == "" && botType != incomingWebhookBot {
		nb.ServiceName = shortName
	}
	if botType == embeddedBot && !embeddedBots[nb.ServiceName] {
		return User{}, apierr.BadRequest("Invalid embedded bot name.")
	}
	email := fmt.Sprintf("%s-bot@%s", shortName, s.settings.Host)
	if !validEmail(email) {
		return User{}, apierr.BadRequest("Bad name or username")
	}
	if _, taken := s.usersByEmail[strings.ToLower(email)]; taken {
		return User{}, apierr.BadRequest("Username already in use")
	}
	if !serviceInterfaces[nb.Interface] {
		return User{}, apierr.BadRequest("Invalid interface type")
	}
	if err := checkConfigSize(nil, nb.ConfigData); err != nil {
		return User{}, err
	}
	u := &User{
		ID: nextID(&s.nextUser), Email: email, FullName: strings.TrimSpace(fullName), Role: RoleMember,
		APIKey: newAPIKey(), IsBot: true, BotType: botType, BotOwnerID: ownerID, IsActive: true,
		DateJoined: s.clock.Now(), Timezone: "UTC", AvatarVersion: 1, EmailAddressVisibility: VisibleEveryone,
		PresenceEnabled: true,
	}
	// A bot keeps the settings' own defaults: the realm's defaults for new users are for
	// humans (the real server's create_user copies them only when bot_type is None).
	if botsLikeHumans() {
		s.org.applyUserDefaults(u)
	}
	s.addUser(u)
	s.setUpBotService(u, nb)
	s.publishUserAdded(u)
	// As the real server's notify_created_bot: the bot, with its services, to its managers.
	s.publish(events.Event{"type": "realm_bot", "op": "add", "bot": s.botObject(u)}, s.botManagers(u)...)
	return *u, nil
}

// UserUpdate is a change to another user's account (PATCH /users/{id} and /users/{email});
// nil fields stay.
type UserUpdate struct {
	FullName    *string
	Role        *int
	ProfileData []ProfileDataItem
	NewEmail    *string
}

// UpdateUser applies an administrator's change to the user with ID targetID.
func (s *AccountState) UpdateUser(requesterID, targetID int, up UserUpdate) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, target := s.users[requesterID], s.users[targetID]
	if target == nil {
		return apierr.NoSuchUser
	}
	return s.updateUser(req, target, up)
}

// UserViewByEmail returns the user an email names (GET /users/{email}), as viewer sees it.
func (s *AccountState) UserViewByEmail(viewerID int, email string, f UserFetch) (UserView, error) {
	s.mu.RLock()
	target := s.userByEmail(s.users[viewerID], email)
	s.mu.RUnlock()
	if target == nil {
		return UserView{}, apierr.NoSuchUser
	}
	return s.UserViewWith(viewerID, target.ID, f)
}

// updateUser applies a change with the real server's and the document's rules, all checks
// first, so a refused change leaves the account untouched.
func (s *AccountState) updateUser(req, target *User, up UserUpdate) error {
	if !req.IsAdmin() && !(mutation.On("moderator-updates-users") && req.IsModerator()) {
		return apierr.BadRequest("Insufficient permission")
	}
	if mutation.On("guest-admin-accepted-not-applied") && up.Role != nil && *up.Role == RoleAdmin && target.IsGuest() {
		return nil
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
		if err := s.checkRoleChange(req, target, role); err != nil {
			if mutation.On("refused-role-change-renames") {
				target.FullName = name
			}
			return err
		}
	}
	if err := s.checkProfileData(up.ProfileData); err != nil {
		return err
	}
	newEmail := target.Email
	if up.NewEmail != nil && !strings.EqualFold(strings.TrimSpace(*up.NewEmail), target.Email) {
		var err error
		if newEmail, err = s.checkNewEmail(req, *up.NewEmail); err != nil {
			return err
		}
	}
	if mutation.On("full-name-not-applied") {
		name = target.FullName
	}
	if name != target.FullName {
		target.FullName = name
		s.publishUserUpdate(target, map[string]any{"full_name": name})
	}
	if role != target.Role && !(role == RoleMember && mutation.On("role-back-to-member-ignored")) {
		target.Role = role
		s.publishUserUpdate(target, map[string]any{"role": role})
	}
	s.applyProfileData(target, up.ProfileData)
	if newEmail != target.Email {
		s.changeEmail(target, newEmail)
	}
	return nil
}

// checkRoleChange: valid role values; owners only add or remove the owner role; the only
// owner keeps it; and, as the API document says, a guest does not become an administrator.
func (s *AccountState) checkRoleChange(req, target *User, role int) error {
	if mutation.On("admin-demotes-owners") && roleValues[role] && target.Role == RoleOwner && role != RoleOwner && s.activeHumanOwners() > 1 {
		return nil
	}
	if mutation.On("only-owner-demoted") && roleValues[role] && target.Role == RoleOwner && req.Role == RoleOwner {
		return nil
	}
	if mutation.On("variant-guest-made-administrator") && roleValues[role] && target.IsGuest() && role != RoleOwner {
		return nil
	}
	switch {
	case !roleValues[role]:
		return apierr.BadRequest("Invalid role")
	case role == target.Role:
		return nil
	case (role == RoleOwner || target.Role == RoleOwner) && req.Role != RoleOwner:
		return apierr.MustBeOwner
	case target.Role == RoleOwner && s.ownersCounted() == 1 && target.IsActive && !target.IsBot:
		return apierr.BadRequest("The owner permission cannot be removed from the only organization owner.")
	case target.IsGuest() && role <= RoleAdmin:
		if mutation.On("guest-admin-refused-but-applied") {
			target.Role = role
		}
		return apierr.BadRequest("Guests cannot be organization administrators")
	}
	return nil
}

// checkNewEmail: an owner holding can_change_user_emails may give a user a new, unused
// address. It returns the trimmed address.
func (s *AccountState) checkNewEmail(req *User, email string) (string, error) {
	if req.Role != RoleOwner {
		return "", apierr.MustBeOwner
	}
	if !req.CanChangeUserEmails && !mutation.On("new-email-without-permission") {
		return "", apierr.BadRequest("User not authorized to change user emails")
	}
	email = strings.TrimSpace(email)
	if !validEmail(email) {
		return "", apierr.BadRequest("Invalid email '%s'", email)
	}
	if _, taken := s.usersByEmail[strings.ToLower(email)]; taken {
		return "", apierr.BadRequest("Email is already in use.")
	}
	return email, nil
}

// changeEmail gives the user a new real address: the login name changes with it; those
// who may see real addresses learn of it, and everyone learns a changed API email.
func (s *AccountState) changeEmail(u *User, email string) {
	oldAPI := s.apiEmail(u)
	delete(s.usersByEmail, strings.ToLower(u.Email))
	u.Email = email
	u.avatar = gravatar(u)
	s.usersByEmail[strings.ToLower(email)] = u
	if mutation.On("delivery-email-event-to-everyone") {
		s.publish(events.Event{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": u.ID, "delivery_email": email}}, s.activeUserIDs()...)
	}
	for _, id := range s.activeUserIDs() {
		if s.canSeeRealEmail(s.users[id], u) {
			s.publish(events.Event{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": u.ID, "delivery_email": email}}, id)
		}
	}
	if api := s.apiEmail(u); api != oldAPI {
		s.publishUserUpdate(u, map[string]any{"new_email": api})
	}
}

// DeactivateUser deactivates a human account (DELETE /users/{id}); the role decorator ran
// before. The account keeps its data but can no longer authenticate.
func (s *AccountState) DeactivateUser(requesterID, targetID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, target := s.users[requesterID], s.users[targetID]
	switch {
	case target == nil || target.IsBot:
		return apierr.NoSuchUser
	case !target.IsActive:
		return apierr.BadRequest("User is deactivated")
	case target.Role == RoleOwner && req.Role != RoleOwner:
		return apierr.MustBeOwner
	case target.Role == RoleOwner && s.activeHumanOwners() == 1:
		return apierr.BadRequest("Cannot deactivate the only organization owner")
	}
	target.IsActive = false
	s.publishUserUpdate(target, map[string]any{"is_active": false})
	return nil
}

// DeactivateSelf deactivates the requester's own account (DELETE /users/me), refused for the
// realm's last active user and its last owner, as on the real server.
func (s *AccountState) DeactivateSelf(userID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	active := 0
	for _, other := range s.users {
		if other.IsActive {
			active++
		}
	}
	switch {
	case active == 1:
		return errLastUser(false)
	case u.Role == RoleOwner && !u.IsBot && s.activeHumanOwners() == 1:
		return errLastUser(true)
	}
	u.IsActive = false
	s.publishUserUpdate(u, map[string]any{"is_active": false})
	return nil
}

// errLastUser is the real server's refusal to deactivate the last user or the last owner.
func errLastUser(lastOwner bool) error {
	entity := "user"
	if lastOwner {
		entity = "organization owner"
	}
	return apierr.Of(apierr.KindInvalid, "CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only %s.", entity).With("is_last_owner", lastOwner)
}

// DeactivateBot deactivates a bot (DELETE /bots/{bot_id}): its owner and organization
// administrators may, as on the real server.
func (s *AccountState) DeactivateBot(requesterID, botID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, bot := s.users[requesterID], s.users[botID]
	switch {
	case bot == nil || !bot.IsBot:
		return apierr.BadRequest("No such bot")
	case !req.IsAdmin() && bot.BotOwnerID != req.ID:
		return apierr.BadRequest("Insufficient permission")
	case !bot.IsActive:
		return apierr.BadRequest("User is deactivated")
	}
	bot.IsActive = false
	s.publishUserUpdate(bot, map[string]any{"is_active": false})
	return nil
}

func (s *AccountState) activeHumanOwners() int {
	n := 0
	for _, u := range s.users {
		if u.Role == RoleOwner && u.IsActive && !u.IsBot {
			n++
		}
	}
	return n
}

func checkFullName(name string) error {
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

// SetVCallToken records whether the user holds a video-call token and tells the user's
// clients with a has_vcall_token event.
func (s *AccountState) SetVCallToken(userID int, has bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	if u == nil {
		return apierr.NoSuchUser
	}
	if mutation.On("vcall-token-never-revoked") && !has {
		return nil
	}
	u.HasVCallToken = has
	if mutation.On("vcall-token-event-stale") {
		has = !has
	}
	s.publish(events.Event{"type": "has_vcall_token", "value": has}, u.ID)
	return nil
}

// ServerPermissions lists, by login email, the active accounts holding a permission beyond
// their role (can_create_users, can_change_user_emails): what the real server's
// administrator grants outside the API, told to the suite through the control API.
func (s *AccountState) ServerPermissions() map[string][]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string][]string{}
	for _, u := range s.users {
		var held []string
		if u.CanCreateUsers {
			held = append(held, "can_create_users")
		}
		if u.CanChangeUserEmails {
			held = append(held, "can_change_user_emails")
		}
		if held != nil && u.IsActive {
			out[u.Email] = held
		}
	}
	return out
}

// activeUserIDs lists every active user, in ID order: the audience of realm-wide events.
func (s *AccountState) activeUserIDs() []int {
	var ids []int
	for _, id := range slices.Sorted(maps.Keys(s.users)) {
		if s.users[id].IsActive {
			ids = append(ids, id)
		}
	}
	return ids
}

// publishUserAdded tells every user of a new account, each as they may see it; under
// client_gravatar the avatar URL is null where the client can compute it.
func (s *AccountState) publishUserAdded(u *User) {
	s.events.PublishEach(func(id int, c events.Client) []events.Event {
		viewer := s.users[id]
		person := s.userView(viewer, u)
		s.clientGravatar(&person, viewer, u, c.ClientGravatar)
		return []events.Event{{"type": "realm_user", "op": "add", "person": person}}
	}, s.activeUserIDs()...)
}

// publishUserUpdate tells every user of a change to one account's fields.
func (s *AccountState) publishUserUpdate(u *User, fields map[string]any) {
	person := map[string]any{"user_id": u.ID}
	maps.Copy(person, fields)
	s.publish(events.Event{"type": "realm_user", "op": "update", "person": person}, s.activeUserIDs()...)
}
