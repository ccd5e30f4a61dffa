package specs

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// The User object of the document is the one the JWT fetch returns with include_profile
// (specs/jwt.go checks it there too); the real server returns the same object from
// GET /users/{id}, which needs no JWT configuration, so the field rules are checked there
// for every role.
var _ = Describe("The User object", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	// One spec a rule and a role, so that a wrong field fails only the requirement about it.
	var entries []TableEntry
	for _, rule := range ops.UserRules {
		for _, role := range harness.Roles {
			if rule.AppliesTo(role) {
				entries = append(entries, Entry(fmt.Sprintf("%s, for the %s", rule.Says, role), harness.Req(rule.ID), rule, role))
			}
		}
	}
	DescribeTable("as GET /users/{user_id} gives it",
		func(rule ops.UserRule, role harness.Role) {
			rule.Check(ops.UserAs(t.User(harness.Member), t.User(role).ID), role)
		},
		entries,
	)

	DescribeTable("gives a bot created by an administrator",
		func(check func(bot *httpexpect.Object)) {
			resp := t.As(t.User(harness.Admin)).POST("/bots").WithFormField("full_name", "Webhook "+harness.UniqueName("b")).
				WithFormField("short_name", harness.UniqueName("hook")).WithFormField("bot_type", 2).Expect()
			id := int(harness.Success(resp).Value("user_id").Number().IsInt().Raw())
			t.DeactivateAtEnd(harness.User{ID: id, Role: harness.Bot})
			check(ops.UserAs(t.User(harness.Member), id))
		},
		Entry("its bot_type", harness.Req("RES-11"), func(bot *httpexpect.Object) { bot.Value("bot_type").Number().IsEqual(2) }),
		Entry("its owner's ID as bot_owner_id", harness.Req("RES-12"), func(bot *httpexpect.Object) {
			bot.Value("bot_owner_id").Number().IsEqual(t.User(harness.Admin).ID)
		}),
	)

	// Only a stub imported from another chat system that has not yet logged in is one; a user
	// or bot created through the API never was imported.
	It("says is_imported_stub false for a user and a bot created through the API", harness.Req("RES-36"), func() {
		admin := t.User(harness.Admin)
		for _, u := range []harness.User{t.Spare(harness.Member), t.User(harness.Bot)} {
			ops.UserAs(admin, u.ID).Value("is_imported_stub").Boolean().IsFalse()
		}
	})

	// is_deleted is present only when true: a user who was not permanently deleted, active or
	// deactivated, has none. No operation of the document deletes a user permanently, so the
	// side where it is true cannot be reached through the API.
	It("leaves is_deleted out for users who were not deleted, a deactivated one too", harness.Req("RES-15"), func() {
		admin := t.User(harness.Admin)
		deactivated := t.Spare(harness.Member)
		t.DeactivateUser(deactivated)
		for _, u := range []harness.User{t.Spare(harness.Member), t.User(harness.Bot), deactivated} {
			ops.UserAs(admin, u.ID).NotContainsKey("is_deleted")
		}
		harness.EachElement(harness.Success(t.As(admin).GET("/users").Expect()).Value("members").Array(), "members", func(u *httpexpect.Value) {
			if deleted, present := u.Object().Raw()["is_deleted"]; present {
				Expect(deleted).To(BeTrue(), "is_deleted is present only when true: user %v", u.Object().Raw()["user_id"])
			}
		})
	})

	It("says is_active false for a deactivated user", harness.Req("RES-09"), func() {
		u := t.Spare(harness.Member) // reactivated when next taken
		ops.UserAs(t.User(harness.Admin), u.ID).Value("is_active").Boolean().IsTrue()
		t.DeactivateUser(u)
		ops.UserAs(t.User(harness.Admin), u.ID).Value("is_active").Boolean().IsFalse()
	})
})
