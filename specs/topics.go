package specs

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 12: get topics in a channel (GET /users/me/{stream_id}/topics)", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	// Two topics, the older one with the latest message.
	type twoTopics struct {
		older, newer             string
		lastOfOlder, lastOfNewer int
	}
	DescribeTable("lists the channel's topics",
		func(check func(topics *httpexpect.Array, tt twoTopics)) {
			ch := t.NewChannel(harness.Public, t.User(harness.Member))
			tt := twoTopics{older: harness.UniqueName("older"), newer: harness.UniqueName("newer")}
			t.SendToChannel(t.User(harness.Admin), ch, tt.older, "first")
			tt.lastOfNewer = t.SendToChannel(t.User(harness.Admin), ch, tt.newer, "second")
			tt.lastOfOlder = t.SendToChannel(t.User(harness.Member), ch, tt.older, "third")
			check(harness.Success(ops.TopicsOf(t.User(harness.Member), ch.ID)).Value("topics").Array(), tt)
		},
		Entry("by name", harness.Req("OP12-03", "RES-16"), func(topics *httpexpect.Array, tt twoTopics) {
			Expect(harness.StringsOf(topics, "name")).To(ConsistOf(tt.older, tt.newer))
		}),
		Entry("most recent first", harness.Req("OP12-04"), func(topics *httpexpect.Array, tt twoTopics) {
			Expect(harness.StringsOf(topics, "name")).To(Equal([]string{tt.older, tt.newer}))
		}),
		Entry("each with the id of its last message as max_id", harness.Req("RES-17"), func(topics *httpexpect.Array, tt twoTopics) {
			last := map[string]int{tt.older: tt.lastOfOlder, tt.newer: tt.lastOfNewer}
			harness.EachElement(topics, "topics", func(v *httpexpect.Value) {
				entry := v.Object()
				entry.Value("max_id").Number().IsInt().IsEqual(last[entry.Value("name").String().Raw()])
			})
		}),
	)

	DescribeTable("reports the empty topic",
		func(query []any, want func() string) {
			ch := t.NewChannel(harness.Public, t.User(harness.Member))
			t.SendToEmptyTopic(t.User(harness.Admin), ch)
			Expect(ops.TopicNames(ops.TopicsOf(t.User(harness.Member), ch.ID, query...))).To(Equal([]string{want()}))
		},
		Entry("as realm_empty_topic_display_name by default", harness.Req("OP12-01"), nil,
			func() string { return harness.Current().Realm.EmptyTopicDisplayName }),
		Entry("as the empty string with allow_empty_topic_name=true", harness.Req("OP12-02"), []any{"allow_empty_topic_name", true},
			func() string { return "" }),
	)

	DescribeTable("in a private channel with protected history lists only topics of messages sent after the subscription",
		func(role harness.Role) {
			admin := t.User(harness.Admin) // a subscriber from the start
			ch := t.NewChannel(harness.PrivateProtected, admin)
			before, after := harness.UniqueName("before"), harness.UniqueName("after")
			t.SendToChannel(admin, ch, before, "sent before the subscription")
			t.Subscribe(ch, t.User(role))
			t.SendToChannel(admin, ch, after, "sent after the subscription")

			Expect(ops.TopicNames(ops.TopicsOf(t.User(role), ch.ID))).To(Equal([]string{after}))
			Expect(ops.TopicNames(ops.TopicsOf(admin, ch.ID))).To(Equal([]string{after, before}))
		},
		Entry("for a user", harness.Req("OP12-05"), harness.Member),
		Entry("for a bot", harness.Req("OP12-06"), harness.Bot),
	)

	DescribeTable("answers BAD_REQUEST for a channel the requester cannot use",
		func(channelID func() int) {
			harness.FailsWith(ops.TopicsOf(t.User(harness.Member), channelID()), "BAD_REQUEST")
		},
		Entry("a channel that does not exist", harness.Req("OP12-07", "ERR-04"), func() int { return harness.UnusedID }),
		Entry("a private channel the requester is not subscribed to", harness.Req("OP12-08", "ERR-04"), func() int {
			ch := t.NewChannel(harness.PrivateShared, t.User(harness.Admin))
			t.SendToChannel(t.User(harness.Admin), ch, harness.UniqueName("secret"), "hidden")
			return ch.ID
		}),
	)
})
