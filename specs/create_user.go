package specs

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 11: create a user (POST /users)", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	// The owner's cell of the role matrix is AUTH-11's success; this spec is about the answer.
	It("returns the user_id of the new account, which is the user with the email and name sent and authenticates once it has an API key",
		harness.Req("OP11-04"), func() {
			ops.OwnerNeeds("can_create_users")
			a := ops.FreshAccount()
			owner := t.User(harness.Owner)
			resp := ops.CreateUser(owner, a)
			id := int(harness.Success(resp).Value("user_id").Number().IsInt().Raw())

			created := ops.UserAs(owner, id)
			Expect(strings.EqualFold(ops.RealEmailIn(created), a.Email)).To(BeTrue(), "the new user's real email")
			created.Value("full_name").String().IsEqual(a.FullName)

			// The API key comes from the password login of the real server, which a server
			// may turn off; the document leaves how a key is obtained open.
			login := t.Anonymous().POST("/fetch_api_key").
				WithFormField("username", a.Email).WithFormField("password", a.Password).Expect()
			if e := ops.Envelope(login); !e.Success {
				// What was checked above is the requirement; logging in only confirms it.
				harness.Info("login not checked", "POST /fetch_api_key refused the new user's password (%s %q): enable password login to check that the user authenticates", e.Code, e.Msg)
				return
			}
			key := harness.Success(login).Value("api_key").String().NotEmpty().Raw()
			harness.Success(t.WithBasicAuth(a.Email, key).GET("/users/me").Expect()).Value("user_id").Number().IsEqual(id)
		})

	// The refusals below are the request's own faults only where the owner may create users:
	// an owner without can_create_users is refused whatever the request holds.
	It("answers BAD_REQUEST when the email is already used in the realm", harness.Req("OP11-05"), func() {
		ops.OwnerNeeds("can_create_users")
		a := ops.FreshAccount()
		a.Email = t.User(harness.Member).Email
		harness.FailsWith(ops.CreateUser(t.User(harness.Owner), a), "BAD_REQUEST")
	})

	// A deactivated account still holds its address in the realm.
	It("answers BAD_REQUEST when the email is a deactivated account's", harness.Req("OP11-05"), func() {
		ops.OwnerNeeds("can_create_users")
		a := ops.FreshAccount()
		a.Email = deactivatedAccount(t).Email
		harness.FailsWith(ops.CreateUser(t.User(harness.Owner), a), "BAD_REQUEST")
	})

	DescribeTable("refuses a request without a required field",
		func(field string) {
			ops.OwnerNeeds("can_create_users")
			a := ops.FreshAccount()
			harness.Fails(ops.CreateUser(t.User(harness.Owner), a, field))
			Expect(ops.AccountExists(a.Email)).To(BeFalse(), "an account was created")
		},
		Entry("email", harness.Req("OP11-03"), "email"),
		Entry("password", harness.Req("OP11-03"), "password"),
		Entry("full_name", harness.Req("OP11-03"), "full_name"),
	)

	DescribeTable("refuses a requester who is not an administrator",
		func(role harness.Role) {
			a := ops.FreshAccount()
			harness.Fails(ops.CreateUser(t.User(role), a))
			Expect(ops.AccountExists(a.Email)).To(BeFalse(), "an account was created")
		},
		Entry("a moderator", harness.Req("OP11-01", "AUTH-11"), harness.Moderator),
		Entry("a member", harness.Req("OP11-01", "AUTH-11"), harness.Member),
		Entry("a guest", harness.Req("OP11-01", "AUTH-11"), harness.Guest),
		Entry("a bot", harness.Req("OP11-01", "AUTH-11"), harness.Bot),
	)

	It("refuses an administrator without can_create_users", harness.Req("OP11-02", "AUTH-11"), func() {
		// A new administrator holds no special permission.
		admin := t.Spare(harness.Admin)
		a := ops.FreshAccount()
		harness.Fails(ops.CreateUser(admin, a))
		Expect(ops.AccountExists(a.Email)).To(BeFalse(), "an account was created")
	})
})
