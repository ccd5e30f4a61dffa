package ops

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// UpdateByEmail sends PATCH /users/{email} (operation 2) as u.
func UpdateByEmail(u harness.User, email string, kv ...any) *httpexpect.Response {
	return SendForm(u, "PATCH", "/users/{email}", email, kv...)
}

// UserAs returns the user object of GET /users/{id} as viewer sees it.
func UserAs(viewer harness.User, id int, query ...any) *httpexpect.Object {
	GinkgoHelper()
	return harness.Success(GetAs(viewer, "/users/{id}", id, query...)).Value("user").Object()
}

// RoleCodeOf returns the user's role code as an administrator sees it.
func RoleCodeOf(u harness.User) int {
	GinkgoHelper()
	return int(UserAs(harness.Current().User(harness.Admin), u.ID).Value("role").Number().Raw())
}

// AccountExists reports whether some user has the email, as its real or API email in any
// case, as an administrator sees the users (whom every email visibility treats as the owner).
func AccountExists(email string) bool {
	GinkgoHelper()
	for _, m := range harness.Success(harness.Current().As(harness.Current().User(harness.Admin)).GET("/users").Expect()).Value("members").Array().Iter() {
		u := m.Object().Raw()
		for _, key := range []string{"delivery_email", "email"} {
			if s, ok := u[key].(string); ok && strings.EqualFold(s, email) {
				return true
			}
		}
	}
	return false
}

// RealEmailIn is the real address in a user object the owner reads: delivery_email, which a
// real server below level 163 leaves out where email is already the real address.
func RealEmailIn(u *httpexpect.Object) string {
	GinkgoHelper()
	if email, ok := u.Raw()["delivery_email"].(string); ok {
		return email
	}
	return u.Value("email").String().Raw()
}

// ProfileValue returns the value of custom profile field field in the user's profile_data
// as an administrator reads it, and whether there is one (absent and null both mean none).
func ProfileValue(id, field int) (any, bool) {
	GinkgoHelper()
	admin := harness.Current().User(harness.Admin)
	data := UserAs(admin, id, "include_custom_profile_fields", true).Value("profile_data").Object().Raw()
	entry, ok := data[fmt.Sprint(field)].(map[string]any)
	if !ok || entry["value"] == nil {
		return nil, false
	}
	return entry["value"], true
}

// UserIDsValue decodes the value of a users-type field: a list of user IDs, which servers
// show as a JSON list or as the JSON text of one.
func UserIDsValue(v any) []int {
	GinkgoHelper()
	if text, ok := v.(string); ok {
		var list []any
		Expect(json.Unmarshal([]byte(text), &list)).To(Succeed(), "a users field value %q is not a JSON list", text)
		v = list
	}
	list, ok := v.([]any)
	Expect(ok).To(BeTrue(), "a users field value %v is not a list", v)
	var ids []int
	for _, e := range list {
		n, isNumber := e.(float64)
		Expect(isNumber).To(BeTrue(), "a users field value %v holds a non-number", v)
		ids = append(ids, int(n))
	}
	return ids
}

// CanSeeRealEmail is which roles may see the real email of a user whose
// email_address_visibility is v, as the setting's values mean it: everyone, members (not
// guests), administrators, nobody, moderators. Bots see what members see.
func CanSeeRealEmail(viewer harness.Role, visibility int) bool {
	admins := viewer == harness.Owner || viewer == harness.Admin
	switch visibility {
	case harness.VisibleToEveryone:
		return true
	case harness.VisibleToMembers:
		return viewer != harness.Guest
	case harness.VisibleToAdmins:
		return admins
	case harness.VisibleToModerators:
		return admins || viewer == harness.Moderator
	}
	return false
}

// ExpectDummyEmail asserts that an email shown for u is not u's real address but the dummy
// form user<id>@<host>.
func ExpectDummyEmail(email string, u harness.User) {
	GinkgoHelper()
	Expect(strings.EqualFold(email, u.Email)).To(BeFalse(), "the real address %s is shown", u.Email)
	Expect(email).To(HavePrefix(fmt.Sprintf("user%d@", u.ID)), "a dummy address is user<id>@<realm host>")
}

// UserRule is one requirement of the User object, checked on the object of a user of role
// (Bot for a bot); roles, when set, are the roles the rule says something about.
type UserRule struct {
	ID, Says string
	Roles    []harness.Role
	Check    func(u *httpexpect.Object, role harness.Role)
}

// UserRules are the User object's field rules, one requirement each, so that one wrong field
// fails only the requirement about it.
var UserRules = []UserRule{
	{ID: "RES-05", Says: "has the documented fields with their types", Check: func(u *httpexpect.Object, _ harness.Role) {
		u.Value("user_id").Number().IsInt()
		for _, key := range []string{"email", "full_name", "date_joined", "timezone"} {
			u.Value(key).String()
		}
		u.Value("avatar_version").Number().IsInt()
		for _, key := range []string{"is_active", "is_owner", "is_admin", "is_guest", "is_bot"} {
			u.Value(key).Boolean()
		}
		// Before RES-36's level the field may be absent, never mistyped.
		if _, present := u.Raw()["is_imported_stub"]; present {
			u.Value("is_imported_stub").Boolean()
		}
	}},
	{ID: "RES-36", Says: "has is_imported_stub, a boolean", Check: func(u *httpexpect.Object, _ harness.Role) {
		u.Value("is_imported_stub").Boolean()
	}},
	{ID: "RES-06", Says: "gives delivery_email as a string or null", Check: func(u *httpexpect.Object, _ harness.Role) {
		harness.ExpectStringOrNull(u.Value("delivery_email"))
	}},
	{ID: "RES-10", Says: "sets is_admin with is_owner", Roles: []harness.Role{harness.Owner}, Check: func(u *httpexpect.Object, _ harness.Role) {
		u.Value("is_owner").Boolean().IsTrue()
		u.Value("is_admin").Boolean().IsTrue()
	}},
	{ID: "RES-11", Says: "gives bot_type null for a human and 1 to 4 for a bot", Check: func(u *httpexpect.Object, role harness.Role) {
		if role != harness.Bot {
			u.Value("bot_type").IsNull()
			return
		}
		Expect([]int{1, 2, 3, 4}).To(ContainElement(int(u.Value("bot_type").Number().IsInt().Raw())), "bot_type of a bot")
	}},
	{ID: "RES-12", Says: "gives a bot's bot_owner_id as an integer or null", Roles: []harness.Role{harness.Bot}, Check: func(u *httpexpect.Object, _ harness.Role) {
		if owner := u.Raw()["bot_owner_id"]; owner != nil {
			u.Value("bot_owner_id").Number().IsInt()
		}
	}},
	// The role flags are the role in another form, so they are checked with the role code.
	{ID: "RES-13", Says: "gives the role code of the user's role", Check: func(u *httpexpect.Object, role harness.Role) {
		code := int(u.Value("role").Number().IsInt().Raw())
		Expect([]int{100, 200, 300, 400, 600}).To(ContainElement(code), "role is one of the documented values")
		u.Value("is_bot").Boolean().IsEqual(role == harness.Bot)
		if role == harness.Bot {
			return
		}
		Expect(code).To(Equal(harness.RoleCode(role)), "role matches the user's role")
		u.Value("is_owner").Boolean().IsEqual(role == harness.Owner)
		u.Value("is_admin").Boolean().IsEqual(role == harness.Owner || role == harness.Admin)
		u.Value("is_guest").Boolean().IsEqual(role == harness.Guest)
	}},
	{ID: "RES-14", Says: "gives avatar_url as a string or null", Check: func(u *httpexpect.Object, _ harness.Role) {
		if u.Raw()["avatar_url"] != nil {
			u.Value("avatar_url").String()
		}
	}},
	{ID: "RES-15", Says: "has is_deleted only when true", Check: func(u *httpexpect.Object, _ harness.Role) {
		if d, present := u.Raw()["is_deleted"]; present {
			Expect(d).To(BeTrue(), "is_deleted is present only when true")
		}
	}},
}

// AppliesTo says whether the rule says anything about a user of role.
func (r UserRule) AppliesTo(role harness.Role) bool {
	return r.Roles == nil || slices.Contains(r.Roles, role)
}

// ExpectUserObject checks every rule of the User object on u, the object of a user of role.
func ExpectUserObject(u *httpexpect.Object, role harness.Role) {
	GinkgoHelper()
	for _, r := range UserRules {
		if r.AppliesTo(role) && Reaches(harness.Current(), r.ID) {
			r.Check(u, role)
		}
	}
}

// OwnerNeeds decides, before the spec acts, whether the owner holds permission, a
// server-level permission the document requires beyond the owner role (can_change_user_emails,
// can_create_users) that only the server's administrator grants. Known from the settings or
// the fake's control API, or shown on the owner's own user object: held, the spec goes on and
// any refusal is a failure; not held or unknown, the spec is skipped here with the reason,
// before any request, so a server that refuses what it was said to allow cannot pass.
func OwnerNeeds(permission string) {
	GinkgoHelper()
	t := harness.Current()
	held, known := t.OwnerHolds(permission)
	if !known {
		// A user object that shows the permission settles it; none of the real server's does.
		me := harness.Success(t.As(t.User(harness.Owner)).GET("/users/me").Expect()).Raw()
		held, known = me[permission].(bool)
	}
	switch {
	case !known:
		harness.SkipNeedsSetup(fmt.Sprintf("not known whether the owner holds %s: declare it with %s (or %q in the config file)",
			permission, settingOwnerPermissions, "owner.permissions"))
	case !held:
		harness.SkipNeedsSetup(fmt.Sprintf("the owner (%s) lacks the %s permission (%s)", settingOwner, permission, t.OwnerPermissionSource))
	}
}

// settingOwnerPermissions names the setting that declares the owner's permissions.
const settingOwnerPermissions = "-" + harness.FlagPrefix + "owner-permissions"

// settingOwner names the setting that chooses the owner, for skip reasons.
const settingOwner = "-" + harness.FlagPrefix + "owner-email"

// Humans are the roles of the cast that are people, most privileged first.
func Humans() []harness.Role {
	return slices.DeleteFunc(slices.Clone(harness.Roles), func(r harness.Role) bool { return r == harness.Bot })
}

// NewAccount is the form of a user that does not exist yet: a unique address in the realm's
// email domain, a strong password and a name.
type NewAccount struct{ Email, Password, FullName string }

func FreshAccount() NewAccount {
	t := harness.Current()
	name := harness.UniqueName("created")
	domain := t.User(harness.Owner).Email[strings.LastIndexByte(t.User(harness.Owner).Email, '@')+1:]
	return NewAccount{Email: name + "@" + domain, Password: "Pw-" + harness.UniqueName("secret"), FullName: "Created " + name}
}

// CreateUser sends POST /users (operation 11) as u with the account's fields, leaving out
// the ones named in omit.
func CreateUser(u harness.User, a NewAccount, omit ...string) *httpexpect.Response {
	req := harness.Current().As(u).POST("/users")
	for name, value := range map[string]string{"email": a.Email, "password": a.Password, "full_name": a.FullName} {
		if !slices.Contains(omit, name) {
			req = req.WithFormField(name, value)
		}
	}
	resp := req.Expect()
	DeactivateCreatedAtEnd(resp, a.Email)
	return resp
}

// DeactivateCreatedAtEnd deactivates the account a POST /users answer says it created, when
// the spec ends, so that no run leaves users behind (docs/footprint.md).
func DeactivateCreatedAtEnd(resp *httpexpect.Response, email string) {
	var body struct {
		Result string `json:"result"`
		UserID int    `json:"user_id"`
	}
	if json.Unmarshal([]byte(resp.Body().Raw()), &body) == nil && body.Result == "success" && body.UserID > 0 {
		harness.Current().DeactivateAtEnd(harness.User{ID: body.UserID, Email: email, Role: harness.Member})
	}
}

// EmailsSeen is every API email of one user that one viewer is shown: the user object's
// email (GET /users/{id}, the GET /users list and register's realm_users), the user's address as a
// message sender and as a direct-message recipient, and the keys of the legacy presence
// format (humans only: bots have no presence).
type EmailsSeen struct {
	Email, ListEmail, SenderEmail, RecipientEmail, RegisterEmail string
	PresenceKeys                                                 []string
}

func EmailsSeenBy(viewer harness.User, subject harness.User, channelMessage, directMessage int) EmailsSeen {
	GinkgoHelper()
	t := harness.Current()
	var seen EmailsSeen
	u := UserAs(viewer, subject.ID).Raw()
	seen.Email, _ = u["email"].(string)
	for _, m := range harness.Success(t.As(viewer).GET("/users").Expect()).Value("members").Array().Iter() {
		if entry := m.Object().Raw(); entry["user_id"] == float64(subject.ID) {
			seen.ListEmail, _ = entry["email"].(string)
		}
	}
	for _, entry := range t.StateOf(viewer, "realm_user").Value("realm_users").Array().Iter() {
		if o := entry.Object().Raw(); o["user_id"] == float64(subject.ID) {
			seen.RegisterEmail, _ = o["email"].(string)
		}
	}
	seen.SenderEmail = MessageAs(viewer, channelMessage).Value("sender_email").String().Raw()
	for _, r := range MessageAs(viewer, directMessage).Value("display_recipient").Array().Iter() {
		if o := r.Object().Raw(); o["id"] == float64(subject.ID) {
			seen.RecipientEmail, _ = o["email"].(string)
		}
	}
	if viewer.Role != harness.Bot {
		presences := harness.Success(UpdatePresence(viewer, "status", "active")).Value("presences").Object().Raw()
		for key := range presences {
			seen.PresenceKeys = append(seen.PresenceKeys, key)
		}
	}
	return seen
}

// GroupMembership sends GET /user_groups/{user_group_id}/members/{user_id} (operation 16) as
// the member; query holds name, value pairs.
func GroupMembership(group, user int, query ...any) *httpexpect.Response {
	return WithQuery(harness.Current().As(harness.Current().User(harness.Member)).GET("/user_groups/{group}/members/{user}", group, user), query...).Expect()
}

// IsMember is the is_user_group_member answer of a successful request.
func IsMember(group, user int, query ...any) bool {
	GinkgoHelper()
	return harness.Success(GroupMembership(group, user, query...)).Value("is_user_group_member").Boolean().Raw()
}

// JwtFetch sends POST /jwt/fetch_api_key (operation 9) without credentials; kv are form
// fields as name, value pairs.
func JwtFetch(kv ...any) *httpexpect.Response {
	return WithForm(harness.Current().Anonymous().POST("/jwt/fetch_api_key"), kv...).Expect()
}

// UpdatePresence sends POST /users/me/presence (operation 4) as u; kv are form fields as
// name, value pairs.
func UpdatePresence(u harness.User, kv ...any) *httpexpect.Response {
	return SendForm(u, "POST", "/users/me/presence", nil, kv...)
}

// UpdateSettings sends PATCH /settings (the user's own settings) as u; kv are form fields as
// name, value pairs.
func UpdateSettings(u harness.User, kv ...any) *httpexpect.Response {
	return SendForm(u, "PATCH", "/settings", nil, kv...)
}

// Presences returns the presences map of a successful update.
func Presences(u harness.User, kv ...any) map[string]any {
	GinkgoHelper()
	return harness.Success(UpdatePresence(u, kv...)).Value("presences").Object().Raw()
}

// PresencesSince returns the presences map and presence_last_update_id of a successful
// update: the last_update_id protocol of level 263.
func PresencesSince(u harness.User, kv ...any) (map[string]any, int) {
	GinkgoHelper()
	resp := harness.Success(UpdatePresence(u, kv...))
	last := int(resp.Value("presence_last_update_id").Number().IsInt().Raw())
	return resp.Value("presences").Object().Raw(), last
}

// quietFor is how long QuietMember's member has reported no presence: past the 55 s within
// which a report is no update, and past the time after which an active report brings the
// member online again, which sends a presence event: on a server of this family, when the
// last active report is more than its offline threshold less one ping interval less 10 s
// old (70 s with the fake's 140 s and 60 s, 130 s with the real server's default 200 s).
const quietFor = 3 * time.Minute

// QuietMember is a member who has reported no presence for longer than quietFor: a spare once
// the clock is moved past it (the spec must be Serial), else a user that never existed.
func QuietMember(t *harness.Target) harness.User {
	GinkgoHelper()
	if !t.Capabilities["clock"] {
		return t.NewUser(harness.Member)
	}
	u := t.Spare(harness.Member)
	t.PassTime(quietFor)
	return u
}

// OwnEntry returns u's own entry of a legacy presences map (u being the requester). The
// document keys the map by "user email" without saying which: the API email, or the real
// one, which the requester may always see of themselves.
func OwnEntry(presences *httpexpect.Object, u harness.User) *httpexpect.Object {
	GinkgoHelper()
	api := UserAs(u, u.ID).Value("email").String().Raw()
	keys := slices.Sorted(maps.Keys(presences.Raw()))
	for _, key := range keys {
		if key == api || strings.EqualFold(key, u.Email) {
			return presences.Value(key).Object()
		}
	}
	Fail(fmt.Sprintf("the legacy presences have no entry keyed by the requester's email (%s or %s); keys: %q", api, u.Email, keys))
	return nil
}

// SetSubscription sends PATCH /users/me/subscriptions/{stream_id} (operation 10) as u; kv
// are form fields as name, value pairs.
func SetSubscription(u harness.User, channelID int, kv ...any) *httpexpect.Response {
	return SendForm(u, "PATCH", "/users/me/subscriptions/{id}", channelID, kv...)
}

// Subscription returns u's entry for the channel in the real server's subscription listing
// (GET /users/me/subscriptions).
func Subscription(u harness.User, channelID int) *httpexpect.Object {
	GinkgoHelper()
	subs := harness.Success(harness.Current().As(u).GET("/users/me/subscriptions").Expect()).Value("subscriptions").Array()
	for _, s := range subs.Iter() {
		if s.Object().Value("stream_id").Number().Raw() == float64(channelID) {
			return s.Object()
		}
	}
	Fail("the subscription listing has no entry for the channel")
	return nil
}

// ProfileData encodes profile_data items: field ID, value pairs.
func ProfileData(kv ...any) string {
	var items []map[string]any
	for i := 0; i+1 < len(kv); i += 2 {
		items = append(items, map[string]any{"id": kv[i], "value": kv[i+1]})
	}
	b, _ := json.Marshal(items)
	return string(b)
}
