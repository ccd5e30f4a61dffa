package specs

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// createVideoCall sends POST /calls/vcall/create as u.
func createVideoCall(u harness.User) *httpexpect.Response {
	return harness.Current().As(u).POST("/calls/vcall/create").Expect()
}

// The video-call integration is server configuration, switched per spec on the fake: the
// specs that need it configured or not run alone. Each gives a spare of its own a token, or
// takes one away.
var _ = Describe("Operation 21: create a video call (POST /calls/vcall/create)", Serial, func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	It("returns url, the meeting URL, to a user holding a token when the integration is configured",
		harness.Req("OP21-01"), func() {
			t.UseVideoCalls()
			user := t.Spare(harness.Member)
			t.SetVCallToken(user, true)
			harness.Success(createVideoCall(user)).Value("url").String().NotEmpty()
		})

	It("answers with an error to a user holding no token", harness.Req("OP21-03"), func() {
		t.UseVideoCalls()
		user := t.Spare(harness.Member)
		if t.Capabilities["vcall-token"] {
			t.SetVCallToken(user, false) // a spare may hold one from an earlier spec
		}
		harness.Fails(createVideoCall(user))
	})

	It("answers with an error when the integration is not configured, even to a user holding a token",
		harness.Req("OP21-02"), func() {
			t.WithoutVideoCalls()
			user := t.Spare(harness.Member)
			if t.Capabilities["vcall-token"] {
				t.SetVCallToken(user, true)
			}
			harness.Fails(createVideoCall(user))
		})
})

var _ = Describe("Registration: has_vcall_token", func() {
	It("tells whether the user holds a token of the video-call integration", harness.Req("OP21-04"), func() {
		t := harness.Current()
		t.NeedCapability("vcall-token")
		user := t.NewUser(harness.Member) // a new user: the first answer is a new user's state
		register := func() bool {
			// A registration of its own each time, its queue deleted at once.
			return t.StateOf(user).Value("has_vcall_token").Boolean().Raw()
		}
		Expect(register()).To(BeFalse(), "a new user holds no token")
		t.SetVCallToken(user, true)
		Expect(register()).To(BeTrue(), "after the user obtained a token")
		t.SetVCallToken(user, false)
		Expect(register()).To(BeFalse(), "after the token was taken away")
	})
})
