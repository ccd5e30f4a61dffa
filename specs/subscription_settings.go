package specs

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// subscriptionProperties are the properties operation 10 sets; linkedProperties the two that
// are one setting (in_home_view is the inverse of is_muted).
var (
	subscriptionProperties = []string{"color", "is_muted", "in_home_view", "pin_to_top", "desktop_notifications",
		"audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify"}
	linkedProperties = map[string]bool{"is_muted": true, "in_home_view": true}
)

var _ = Describe("Operation 10: update a subscription setting (PATCH /users/me/subscriptions/{stream_id})", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
	)
	BeforeEach(func() {
		t = harness.Current()
		member = t.User(harness.Member)
		ch = t.NewChannel(harness.Public, t.User(harness.Member))
	})

	It("answers a success envelope", harness.Req("OP10-06"), func() {
		harness.BareSuccess(ops.SetSubscription(member, ch.ID, "property", "pin_to_top", "value", true))
	})

	// The listing showing the value that was set is both the change (OP10-05) and the
	// property's type (RES-32, RES-33, RES-35): one assertion. The change is of that property
	// alone: every other property reads back as it was.
	DescribeTable("sets each boolean property, and no other, as the subscription listing shows",
		func(property string) {
			others := func() map[string]any {
				GinkgoHelper()
				listed := ops.Subscription(member, ch.ID).Raw()
				out := map[string]any{}
				for _, p := range subscriptionProperties {
					if p != property && !(linkedProperties[p] && linkedProperties[property]) {
						out[p] = listed[p]
					}
				}
				return out
			}
			before := others()
			for _, value := range []bool{true, false} {
				harness.Success(ops.SetSubscription(member, ch.ID, "property", property, "value", value))
				listed := ops.Subscription(member, ch.ID)
				listed.Value(property).Boolean().IsEqual(value)
				Expect(others()).To(Equal(before), "setting %s changed other properties", property)
			}
		},
		Entry("is_muted", harness.Req("OP10-05", "RES-33"), "is_muted"),
		Entry("pin_to_top", harness.Req("OP10-05", "RES-35"), "pin_to_top"),
		Entry("desktop_notifications", harness.Req("OP10-05", "RES-35"), "desktop_notifications"),
		Entry("audible_notifications", harness.Req("OP10-05", "RES-35"), "audible_notifications"),
		Entry("push_notifications", harness.Req("OP10-05", "RES-35"), "push_notifications"),
		Entry("email_notifications", harness.Req("OP10-05", "RES-35"), "email_notifications"),
		Entry("wildcard_mentions_notify", harness.Req("OP10-05", "RES-35"), "wildcard_mentions_notify"),
	)

	// Hex digits in either case are a hex color (OP10-03).
	DescribeTable("sets color from a hex color string, as the subscription listing shows",
		func(value string) {
			harness.Success(ops.SetSubscription(member, ch.ID, "property", "color", "value", value))
			color := ops.Subscription(member, ch.ID).Value("color").String().Raw()
			Expect(strings.ToLower(color)).To(Equal(strings.ToLower(value)))
		},
		Entry("in lower case", harness.Req("OP10-05", "RES-32", "OP10-03"), "#1a2b3c"),
		Entry("in upper case", harness.Req("OP10-05", "RES-32", "OP10-03"), "#1A2B3C"),
	)

	It("mutes a channel that was not muted with is_muted true", harness.Req("STATE-10"), func() {
		ops.Subscription(member, ch.ID).Value("is_muted").Boolean().IsFalse()
		harness.Success(ops.SetSubscription(member, ch.ID, "property", "is_muted", "value", true))
		ops.Subscription(member, ch.ID).Value("is_muted").Boolean().IsTrue()
	})

	// in_home_view is the deprecated inverse of is_muted (RES-34, and VER-13 where it is
	// the one set).
	DescribeTable("keeps is_muted and in_home_view inverses of each other",
		func(property string, value, muted bool) {
			// From the other state, so that each entry changes something.
			harness.Success(ops.SetSubscription(member, ch.ID, "property", "is_muted", "value", !muted))
			harness.Success(ops.SetSubscription(member, ch.ID, "property", property, "value", value))
			sub := ops.Subscription(member, ch.ID)
			sub.Value("is_muted").Boolean().IsEqual(muted)
			sub.Value("in_home_view").Boolean().IsEqual(!muted)
		},
		Entry("in_home_view false mutes", harness.Req("RES-34", "VER-13"), "in_home_view", false, true),
		Entry("in_home_view true unmutes", harness.Req("RES-34", "VER-13"), "in_home_view", true, false),
		Entry("is_muted true mutes", harness.Req("RES-34"), "is_muted", true, true),
		Entry("is_muted false unmutes", harness.Req("RES-34"), "is_muted", false, false),
	)

	DescribeTable("refuses a value of the wrong type and changes nothing",
		func(property string, value any) {
			before := ops.Subscription(member, ch.ID).Value(property).Raw()
			harness.Fails(ops.SetSubscription(member, ch.ID, "property", property, "value", value))
			Expect(ops.Subscription(member, ch.ID).Value(property).Raw()).To(Equal(before))
		},
		Entry("color that is not hex", harness.Req("OP10-03"), "color", "blue"),
		Entry("color given a boolean", harness.Req("OP10-03"), "color", true),
		Entry("a boolean property given a color", harness.Req("OP10-04"), "pin_to_top", "#1a2b3c"),
		Entry("a boolean property given a word", harness.Req("OP10-04"), "is_muted", "sometimes"),
		// Texts that a lax boolean parser takes for one are neither JSON booleans nor colors.
		Entry("a boolean property given 1", harness.Req("OP10-04"), "pin_to_top", "1"),
		Entry("a boolean property given t", harness.Req("OP10-04"), "pin_to_top", "t"),
	)

	DescribeTable("refuses a request without a valid property or value",
		func(kv ...any) { harness.Fails(ops.SetSubscription(member, ch.ID, kv...)) },
		Entry("an unknown property", harness.Req("OP10-01"), "property", "volume", "value", true),
		Entry("no property", harness.Req("OP10-01"), "value", true),
		Entry("no value", harness.Req("OP10-02"), "property", "pin_to_top"),
	)

	It("refuses a channel that does not exist with BAD_REQUEST", harness.Req("ERR-04"), func() {
		harness.FailsWith(ops.SetSubscription(member, harness.UnusedID, "property", "pin_to_top", "value", true), "BAD_REQUEST")
	})
})
