package specs

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/chatconform/chatconform/harness"
)

// The User object of the document is the one the JWT fetch returns with include_profile
// (specs/jwt.go checks it there too); the real server returns the same object from
// GET /users/{id}, which needs no JWT configuration, so the field rules are checked there
// for every role.
var _ = Describe("The User object", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	DescribeTable("has the documented fields and field rules",
		func(role harness.Role) {
			acct.expectUserObject(acct.userAs(t.Users[harness.Member], t.Users[role].ID), role)
		},
		Entry("for an owner (is_owner implies is_admin)", harness.Req("RES-05", "RES-10", "RES-11", "RES-13", "RES-14", "RES-15"), harness.Owner),
		Entry("for an administrator", harness.Req("RES-05", "RES-10", "RES-11", "RES-13", "RES-14", "RES-15"), harness.Admin),
		Entry("for a moderator", harness.Req("RES-05", "RES-11", "RES-13", "RES-14", "RES-15"), harness.Moderator),
		Entry("for a member", harness.Req("RES-05", "RES-11", "RES-13", "RES-14", "RES-15"), harness.Member),
		Entry("for a guest", harness.Req("RES-05", "RES-11", "RES-13", "RES-14", "RES-15"), harness.Guest),
		Entry("for a bot", harness.Req("RES-05", "RES-11", "RES-12", "RES-14", "RES-15"), harness.Bot),
	)

	It("gives a bot its bot_type and its owner's ID as bot_owner_id", harness.Req("RES-11", "RES-12"), func() {
		owner := t.Users[harness.Owner]
		resp := t.As(harness.Owner).POST("/bots").WithFormField("full_name", "Webhook "+harness.UniqueName("b")).
			WithFormField("short_name", harness.UniqueName("hook")).WithFormField("bot_type", 2).Expect()
		id := int(harness.Success(resp).Value("user_id").Number().IsInt().Raw())
		t.DeactivateAtEnd(harness.User{ID: id, Role: harness.Bot})
		bot := acct.userAs(t.Users[harness.Member], id)
		bot.Value("bot_type").Number().IsEqual(2)
		bot.Value("bot_owner_id").Number().IsEqual(owner.ID)
	})

	It("says is_active false for a deactivated user", harness.Req("RES-09"), func() {
		u := t.NewUser(harness.Member)
		acct.userAs(t.Users[harness.Admin], u.ID).Value("is_active").Boolean().IsTrue()
		t.DeactivateUser(u)
		acct.userAs(t.Users[harness.Admin], u.ID).Value("is_active").Boolean().IsFalse()
	})
})
