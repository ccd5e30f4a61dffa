package specs

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// The JWT specs are Serial: against the fake each one sets the server's JWT key.
var _ = Describe("Operation 9: fetch an API key with a JWT (POST /jwt/fetch_api_key)", Serial, func() {
	var (
		t      *harness.Target
		signer harness.JWTSigner
		user   harness.User
	)
	BeforeEach(func() {
		t = harness.Current()
		signer = t.NeedJWT()
		// Fetching a key changes nothing about the user, so the cast's member serves; the
		// specs that change the user take a fresh one.
		user = t.User(harness.Member)
	})

	// A token with the user's email claim, sent without credentials (ops.JwtFetch sends none).
	DescribeTable("exchanges a token with the user's email claim",
		func(check func(resp *httpexpect.Object)) {
			check(harness.Success(ops.JwtFetch("token", signer.TokenFor(user.Email))))
		},
		Entry("sent without credentials", harness.Req("OP09-01", "AUTH-03"), func(*httpexpect.Object) {}),
		Entry("for the user's api_key and email", harness.Req("OP09-03"), func(resp *httpexpect.Object) {
			resp.Value("api_key").String().NotEmpty()
			resp.Value("email").String().IsEqualFold(user.Email)
		}),
		Entry("for a key that authenticates as the user", harness.Req("OP09-02", "AUTH-04"), func(resp *httpexpect.Object) {
			key := resp.Value("api_key").String().Raw()
			harness.Success(t.WithBasicAuth(user.Email, key).GET("/users/me").Expect()).
				Value("user_id").Number().IsEqual(user.ID)
		}),
	)

	// The operation takes no credentials, so it reads none: a client that sends its HTTP
	// Basic header with every request, a stale key in it, still gets the token exchanged.
	It("exchanges the token whatever HTTP Basic credentials come with it", harness.Req("OP09-01", "AUTH-03"), func() {
		resp := ops.WithForm(t.WithBasicAuth(user.Email, "not-the-api-key-of-anyone").POST("/jwt/fetch_api_key"),
			"token", signer.TokenFor(user.Email)).Expect()
		harness.Success(resp).Value("email").String().IsEqualFold(user.Email)
	})

	DescribeTable("answers without a user object unless include_profile is true",
		func(extra ...any) {
			resp := harness.Success(ops.JwtFetch(append([]any{"token", signer.TokenFor(user.Email)}, extra...)...))
			resp.NotContainsKey("user")
		},
		Entry("include_profile left out", harness.Req("OP09-04")),
		Entry("include_profile false", harness.Req("OP09-04"), "include_profile", false),
	)

	DescribeTable("with include_profile true adds the user object, as the user sees themselves",
		func(role harness.Role) {
			subject := user
			switch role {
			case harness.Owner:
				subject = t.NewOwner() // an owner that stops being one when the spec ends
			default:
				subject = t.User(role)
			}
			resp := harness.Success(ops.JwtFetch("token", signer.TokenFor(subject.Email), "include_profile", true))
			profile := resp.Value("user").Object()
			ops.ExpectUserObject(profile, role)
			profile.Value("user_id").Number().IsEqual(subject.ID)
			profile.Value("delivery_email").String().IsEqualFold(subject.Email)
		},
		Entry("an owner", harness.Req("OP09-05"), harness.Owner),
		Entry("an administrator", harness.Req("OP09-05"), harness.Admin),
		Entry("a moderator", harness.Req("OP09-05"), harness.Moderator),
		Entry("a member", harness.Req("OP09-05"), harness.Member),
		Entry("a guest", harness.Req("OP09-05"), harness.Guest),
	)

	// With the visibility nobody, the user's own profile still has the real address as
	// delivery_email, and the dummy address as the API email.
	DescribeTable("shows the user their own emails in the profile whatever their email visibility",
		func(check func(profile *httpexpect.Object, user harness.User)) {
			user := t.Spare(harness.Member)
			t.SetEmailVisibility(user, harness.VisibleToNobody)
			check(harness.Success(ops.JwtFetch("token", signer.TokenFor(user.Email), "include_profile", true)).Value("user").Object(), user)
		},
		Entry("the real address as delivery_email", harness.Req("RES-06"), func(profile *httpexpect.Object, user harness.User) {
			profile.Value("delivery_email").String().IsEqualFold(user.Email)
		}),
		Entry("the dummy address as email", harness.Req("RES-08"), func(profile *httpexpect.Object, user harness.User) {
			ops.ExpectDummyEmail(profile.Value("email").String().Raw(), user)
		}),
	)

	DescribeTable("refuses a request without a valid token for an active user",
		func(token func() *string) {
			var resp *httpexpect.Response
			if tok := token(); tok == nil {
				resp = ops.JwtFetch()
			} else {
				resp = ops.JwtFetch("token", *tok)
			}
			harness.Fails(resp).NotContainsKey("api_key")
		},
		Entry("no token", harness.Req("OP09-02"), func() *string { return nil }),
		Entry("a malformed token", harness.Req("OP09-02", "AUTH-04"), func() *string { s := "not.a.jwt"; return &s }),
		Entry("a token signed with another key", harness.Req("OP09-02", "AUTH-04"), func() *string {
			s := signer.WithKey("not-the-" + harness.UniqueName("key")).TokenFor(user.Email)
			return &s
		}),
		Entry("an expired token", harness.Req("OP09-02", "AUTH-04"), func() *string { s := signer.ExpiredTokenFor(user.Email); return &s }),
		Entry("a token without the email claim", harness.Req("OP09-02"), func() *string {
			s := signer.Token(map[string]any{"sub": user.Email})
			return &s
		}),
		Entry("a token for an unknown user", harness.Req("OP09-02", "AUTH-04"), func() *string {
			s := signer.TokenFor(harness.UniqueName("nobody") + "@unknown.example.test")
			return &s
		}),
		Entry("a token for a deactivated user", harness.Req("OP09-02", "AUTH-04"), func() *string {
			gone := t.Spare(harness.Member)
			t.DeactivateUser(gone)
			s := signer.TokenFor(gone.Email)
			return &s
		}),
	)
})
