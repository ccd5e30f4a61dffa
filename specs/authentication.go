package specs

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// authenticatedOperation is one of the 20 documented operations that require credentials,
// with a path that names real objects where it can, so only the credentials are wrong, and
// the gate of the operation itself: a route that does not exist on the target (a feature it
// lacks, a level below the operation's) cannot prove anything about its credentials.
type authenticatedOperation struct {
	number int
	method string
	path   func(ids fixtureIDs) string
	gate   func(t *harness.Target)
}

// fixtureIDs are real objects for the operations' path parameters.
type fixtureIDs struct{ message, channel, user int }

var authenticatedOperations = []authenticatedOperation{
	{1, "PATCH", func(f fixtureIDs) string { return fmt.Sprintf("/messages/%d", f.message) }, nil},
	// The route exists where operation 2's rules hold (the catalog's level, from the real server's changelog).
	{2, "PATCH", func(fixtureIDs) string { return "/users/" + harness.Current().User(harness.Member).Email }, func(t *harness.Target) { ops.NeedLevelOf(t, "OP02-01") }},
	{3, "PATCH", func(fixtureIDs) string { return "/users/me/subscriptions/muted_topics" }, nil},
	{4, "POST", func(fixtureIDs) string { return "/users/me/presence" }, nil},
	{5, "GET", func(fixtureIDs) string { return "/messages/matches_narrow" }, nil},
	{6, "GET", func(f fixtureIDs) string { return fmt.Sprintf("/messages/%d", f.message) }, nil},
	{7, "POST", func(fixtureIDs) string { return "/mobile_push/register" }, func(t *harness.Target) { ops.NeedLevelOf(t, "VER-19") }},
	{8, "POST", func(f fixtureIDs) string { return fmt.Sprintf("/streams/%d/delete_topic", f.channel) }, nil},
	{10, "PATCH", func(f fixtureIDs) string { return fmt.Sprintf("/users/me/subscriptions/%d", f.channel) }, nil},
	{11, "POST", func(fixtureIDs) string { return "/users" }, nil},
	{12, "GET", func(f fixtureIDs) string { return fmt.Sprintf("/users/me/%d/topics", f.channel) }, nil},
	// Likewise for operations 13, 15 and 16.
	{13, "POST", func(f fixtureIDs) string { return fmt.Sprintf("/messages/%d/typing", f.message) }, func(t *harness.Target) { ops.NeedLevelOf(t, "OP13-01") }},
	{14, "POST", func(fixtureIDs) string { return "/realm/playgrounds" }, nil},
	{15, "POST", func(fixtureIDs) string { return "/reminders" }, func(t *harness.Target) { ops.NeedLevelOf(t, "OP15-01") }},
	{16, "GET", func(f fixtureIDs) string { return fmt.Sprintf("/user_groups/%d/members/%d", 1, f.user) }, func(t *harness.Target) { ops.NeedLevelOf(t, "OP16-01") }},
	{17, "GET", func(fixtureIDs) string { return "/realm/linkifiers" }, nil},
	{18, "DELETE", func(fixtureIDs) string { return "/attachments/1" }, nil},
	{19, "POST", func(fixtureIDs) string { return "/mark_all_as_read" }, nil},
	{20, "DELETE", func(fixtureIDs) string { return "/bot_storage" }, nil},
	{21, "POST", func(fixtureIDs) string { return "/calls/vcall/create" }, func(t *harness.Target) {
		// The route exists where the video-call integration does: a target claiming the
		// feature, or the fake, which can switch it on.
		if !t.Capabilities["config"] {
			t.NeedFeature("vcall")
		}
	}},
}

// noCredentials names the request that sends no credentials at all.
const noCredentials = "no credentials"

// badCredentials are the ways a request can fail to authenticate, each with the
// requirements its UNAUTHORIZED answer proves, and what its msg may name besides
// authentication (the real server names a deactivated account as such).
var badCredentials = []struct {
	name   string
	reqs   []string
	client func(t *harness.Target) *harness.Client
	reason string
}{
	{noCredentials, []string{"AUTH-05", "CONV-08", "ERR-12"},
		func(t *harness.Target) *harness.Client { return t.Anonymous() }, ""},
	{"a known email with a wrong API key", []string{"AUTH-06", "ERR-12"}, func(t *harness.Target) *harness.Client {
		return t.WithBasicAuth(t.User(harness.Member).Email, harness.WrongAPIKey)
	}, ""},
	// Every kind of account: a bot's key is checked as a user's is.
	{"a bot's email with a wrong API key", []string{"AUTH-06", "ERR-12"}, func(t *harness.Target) *harness.Client {
		return t.WithBasicAuth(t.User(harness.Bot).Email, harness.WrongAPIKey)
	}, ""},
	{"a guest's email with a wrong API key", []string{"AUTH-06", "ERR-12"}, func(t *harness.Target) *harness.Client {
		return t.WithBasicAuth(t.User(harness.Guest).Email, harness.WrongAPIKey)
	}, ""},
	{"an unknown email", []string{"AUTH-07", "ERR-12"}, func(t *harness.Target) *harness.Client {
		return t.WithBasicAuth(harness.UniqueName("nobody")+"@unknown.example.test", t.User(harness.Member).APIKey)
	}, ""},
	// The right key of an account that is no longer active is no valid authentication.
	{"a deactivated user's email and API key", []string{"ERR-12"}, func(t *harness.Target) *harness.Client {
		u := deactivatedAccount(t)
		return t.WithBasicAuth(u.Email, u.APIKey)
	}, "deactivated"},
}

// deactivated is the process's deactivated account, whose own credentials the refused
// requests send.
var deactivated struct {
	sync.Once
	user harness.User
}

func deactivatedAccount(t *harness.Target) harness.User {
	GinkgoHelper()
	deactivated.Do(func() {
		deactivated.user = t.DeactivatedAccount()
	})
	Expect(deactivated.user.APIKey).NotTo(BeEmpty(), "no deactivated user: making one failed in an earlier spec")
	return deactivated.user
}

// authMessage is the message the refused requests name, sent once per process.
var authMessage struct {
	sync.Once
	id int
}

var _ = Describe("Authentication", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	DescribeTable("accepts HTTP Basic authentication with an email and API key",
		func(role harness.Role) {
			me := harness.Success(t.As(t.User(role)).GET("/users/me").Expect())
			me.Value("user_id").Number().IsEqual(t.User(role).ID)
		},
		Entry("of a user", harness.Req("AUTH-01"), harness.Member),
		// Every kind of user account: the rule is not only the members'.
		Entry("of an owner", harness.Req("AUTH-01"), harness.Owner),
		Entry("of an administrator", harness.Req("AUTH-01"), harness.Admin),
		Entry("of a moderator", harness.Req("AUTH-01"), harness.Moderator),
		Entry("of a guest", harness.Req("AUTH-01"), harness.Guest),
		Entry("of a bot", harness.Req("AUTH-02"), harness.Bot),
	)

	Describe("refuses every authenticated operation without valid credentials with UNAUTHORIZED", func() {
		var ids fixtureIDs
		BeforeEach(func() {
			// The requests are refused before they act, so the specs of a process share the
			// channel and message they name (docs/footprint.md).
			ch := t.SharedChannel()
			authMessage.Do(func() {
				authMessage.id = t.SendToChannel(t.User(harness.Admin), ch, harness.UniqueName("auth"), "authenticated only")
			})
			ids = fixtureIDs{message: authMessage.id, channel: ch.ID, user: t.User(harness.Member).ID}
		})
		for _, op := range authenticatedOperations {
			for _, cred := range badCredentials {
				It(fmt.Sprintf("operation %d (%s) with %s", op.number, op.method, cred.name), harness.Req(cred.reqs...), func() {
					if op.gate != nil {
						op.gate(t)
					}
					harness.FailsWith(cred.client(t).Request(op.method, op.path(ids)).Expect(), "UNAUTHORIZED")
				})
			}
		}
		// The document's msg says authentication is required; the real server says that
		// without credentials and names what was wrong otherwise ("Invalid API key"). Either
		// is accepted; a msg about anything else is not.
		for _, cred := range badCredentials {
			It("says so in msg, with "+cred.name, harness.Req("AUTH-08"), func() {
				resp := cred.client(t).GET(fmt.Sprintf("/messages/%d", ids.message)).Expect()
				msg := harness.FailsWith(resp, "UNAUTHORIZED").Value("msg").String().NotEmpty().Raw()
				says := `(?i)authenticat|logged in|session|api key|credential`
				if cred.reason != "" {
					says += "|" + cred.reason
				}
				Expect(msg).To(MatchRegexp(says), "msg says authentication is required, or what was wrong with it")
				if cred.name == noCredentials {
					// Nothing was wrong with credentials never sent: the msg says what the
					// document's does, that authentication is required.
					Expect(msg).To(MatchRegexp(`(?i)authenticat`), "msg says API authentication or a session is required")
				}
			})
		}
	})

	Describe("shows another user's real email only as that user's email_address_visibility allows", func() {
		var subject harness.User
		BeforeEach(func() {
			subject = t.Spare(harness.Member)
		})

		userAs := func(viewer harness.Role) *httpexpect.Object { return ops.UserAs(t.User(viewer), subject.ID) }

		It("shows the real address to everyone when visibility is everyone", harness.Req("AUTH-18"), func() {
			t.SetEmailVisibility(subject, harness.VisibleToEveryone)
			for _, viewer := range []harness.Role{harness.Member, harness.Admin} {
				userAs(viewer).Value("email").String().IsEqualFold(subject.Email)
			}
		})

		It("shows the real address to those the setting admits", harness.Req("AUTH-18"), func() {
			t.SetEmailVisibility(subject, harness.VisibleToAdmins)
			userAs(harness.Admin).Value("delivery_email").String().IsEqualFold(subject.Email)
		})

		It("shows the dummy address user<id>@<realm host>, and no real one, to those the setting excludes", harness.Req("AUTH-19"), func() {
			t.SetEmailVisibility(subject, harness.VisibleToAdmins)
			member := userAs(harness.Member)
			ops.ExpectDummyEmail(member.Value("email").String().Raw(), subject)
			member.Value("delivery_email").IsNull()
		})
	})
})
