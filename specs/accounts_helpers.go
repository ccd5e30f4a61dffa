package specs

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// acctOps gathers the requests and checks the specs of users, roles, groups, JWT, presence
// and subscriptions share. They are methods of one value (acct) so that their names cannot
// clash with other spec files' helpers.
type acctOps struct{}

var acct acctOps

// updateByEmail sends PATCH /users/{email} (operation 2) as u.
func (o acctOps) updateByEmail(u harness.User, email string, kv ...any) *httpexpect.Response {
	return sendForm(u, "PATCH", "/users/{email}", email, kv...)
}

// userAs returns the user object of GET /users/{id} as viewer sees it.
func (acctOps) userAs(viewer harness.User, id int, query ...any) *httpexpect.Object {
	GinkgoHelper()
	req := withQuery(harness.Current().As(viewer).GET("/users/{id}", id), query...)
	return harness.Success(req.Expect()).Value("user").Object()
}

// roleCodeOf returns the user's role code as an administrator sees it.
func (acctOps) roleCodeOf(u harness.User) int {
	GinkgoHelper()
	return int(acct.userAs(harness.Current().User(harness.Admin), u.ID).Value("role").Number().Raw())
}

// accountExists reports whether some user has the email, as its real or API email in any
// case, as the owner sees the users.
func (acctOps) accountExists(email string) bool {
	GinkgoHelper()
	for _, m := range harness.Success(harness.Current().As(harness.Current().User(harness.Owner)).GET("/users").Expect()).Value("members").Array().Iter() {
		u := m.Object().Raw()
		for _, key := range []string{"delivery_email", "email"} {
			if s, ok := u[key].(string); ok && strings.EqualFold(s, email) {
				return true
			}
		}
	}
	return false
}

// realEmailIn is the real address in a user object the owner reads: delivery_email, which a
// real server below level 163 leaves out where email is already the real address.
func (acctOps) realEmailIn(u *httpexpect.Object) string {
	GinkgoHelper()
	if email, ok := u.Raw()["delivery_email"].(string); ok {
		return email
	}
	return u.Value("email").String().Raw()
}

// profileValue returns the value of custom profile field field in the user's profile_data
// as an administrator reads it, and whether there is one (absent and null both mean none).
func (o acctOps) profileValue(id, field int) (any, bool) {
	GinkgoHelper()
	admin := harness.Current().User(harness.Admin)
	data := o.userAs(admin, id, "include_custom_profile_fields", true).Value("profile_data").Object().Raw()
	entry, ok := data[fmt.Sprint(field)].(map[string]any)
	if !ok || entry["value"] == nil {
		return nil, false
	}
	return entry["value"], true
}

// userIDsValue decodes the value of a users-type field: a list of user IDs, which servers
// show as a JSON list or as the JSON text of one.
func (acctOps) userIDsValue(v any) []int {
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

// canSeeRealEmail is which roles may see the real email of a user whose
// email_address_visibility is v, as the setting's values mean it: everyone, members (not
// guests), administrators, nobody, moderators. Bots see what members see.
func (acctOps) canSeeRealEmail(viewer harness.Role, visibility int) bool {
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

// expectDummyEmail asserts that an email shown for u is not u's real address but the dummy
// form user<id>@<host>.
func (acctOps) expectDummyEmail(email string, u harness.User) {
	GinkgoHelper()
	Expect(strings.EqualFold(email, u.Email)).To(BeFalse(), "the real address %s is shown", u.Email)
	Expect(email).To(HavePrefix(fmt.Sprintf("user%d@", u.ID)), "a dummy address is user<id>@<realm host>")
}

// isImportedStubLevel is the level at which the real server added is_imported_stub.
const isImportedStubLevel = 433

// userRule is one requirement of the User object, checked on the object of a user of role
// (Bot for a bot); roles, when set, are the roles the rule says something about.
type userRule struct {
	id, says string
	roles    []harness.Role
	check    func(u *httpexpect.Object, role harness.Role)
}

// userRules are the User object's field rules, one requirement each, so that one wrong field
// fails only the requirement about it.
var userRules = []userRule{
	{id: "RES-05", says: "has the documented fields with their types", check: func(u *httpexpect.Object, _ harness.Role) {
		u.Value("user_id").Number().IsInt()
		for _, key := range []string{"email", "full_name", "date_joined", "timezone"} {
			u.Value(key).String()
		}
		u.Value("avatar_version").Number().IsInt()
		booleans := []string{"is_active", "is_owner", "is_admin", "is_guest", "is_bot"}
		// The document names is_imported_stub without a level; the real server added it at
		// level 433 (its changelog), so an older server may leave it out, never mistype it.
		if _, present := u.Raw()["is_imported_stub"]; present || harness.Current().FeatureLevel >= isImportedStubLevel {
			booleans = append(booleans, "is_imported_stub")
		}
		for _, key := range booleans {
			u.Value(key).Boolean()
		}
	}},
	{id: "RES-06", says: "gives delivery_email as a string or null", check: func(u *httpexpect.Object, _ harness.Role) {
		harness.ExpectStringOrNull(u.Value("delivery_email"))
	}},
	{id: "RES-10", says: "sets is_admin with is_owner", roles: []harness.Role{harness.Owner}, check: func(u *httpexpect.Object, _ harness.Role) {
		u.Value("is_owner").Boolean().IsTrue()
		u.Value("is_admin").Boolean().IsTrue()
	}},
	{id: "RES-11", says: "gives bot_type null for a human and 1 to 4 for a bot", check: func(u *httpexpect.Object, role harness.Role) {
		if role != harness.Bot {
			u.Value("bot_type").IsNull()
			return
		}
		Expect([]int{1, 2, 3, 4}).To(ContainElement(int(u.Value("bot_type").Number().IsInt().Raw())), "bot_type of a bot")
	}},
	{id: "RES-12", says: "gives a bot's bot_owner_id as an integer or null", roles: []harness.Role{harness.Bot}, check: func(u *httpexpect.Object, _ harness.Role) {
		if owner := u.Raw()["bot_owner_id"]; owner != nil {
			u.Value("bot_owner_id").Number().IsInt()
		}
	}},
	// The role flags are the role in another form, so they are checked with the role code.
	{id: "RES-13", says: "gives the role code of the user's role", check: func(u *httpexpect.Object, role harness.Role) {
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
	{id: "RES-14", says: "gives avatar_url as a string or null", check: func(u *httpexpect.Object, _ harness.Role) {
		if u.Raw()["avatar_url"] != nil {
			u.Value("avatar_url").String()
		}
	}},
	{id: "RES-15", says: "has is_deleted only when true", check: func(u *httpexpect.Object, _ harness.Role) {
		if d, present := u.Raw()["is_deleted"]; present {
			Expect(d).To(BeTrue(), "is_deleted is present only when true")
		}
	}},
}

// appliesTo says whether the rule says anything about a user of role.
func (r userRule) appliesTo(role harness.Role) bool {
	return r.roles == nil || slices.Contains(r.roles, role)
}

// expectUserObject checks every rule of the User object on u, the object of a user of role.
func (acctOps) expectUserObject(u *httpexpect.Object, role harness.Role) {
	GinkgoHelper()
	for _, r := range userRules {
		if r.appliesTo(role) {
			r.check(u, role)
		}
	}
}

// ownerNeeds decides, before the spec acts, whether the owner holds permission, a
// server-level permission the document requires beyond the owner role (can_change_user_emails,
// can_create_users) that only the server's administrator grants. Known from the settings or
// the fake's control API, or shown on the owner's own user object: held, the spec goes on and
// any refusal is a failure; not held or unknown, the spec is skipped here with the reason,
// before any request, so a server that refuses what it was said to allow cannot pass.
func (acctOps) ownerNeeds(permission string) {
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

// humans are the roles of the cast that are people, most privileged first.
func (acctOps) humans() []harness.Role {
	return slices.DeleteFunc(slices.Clone(harness.Roles), func(r harness.Role) bool { return r == harness.Bot })
}
