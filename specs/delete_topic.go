package specs

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 8: delete a topic (POST /streams/{stream_id}/delete_topic)", func() {
	var (
		t     *harness.Target
		admin harness.User
		ch    harness.Channel
		topic string
	)
	BeforeEach(func() {
		t = harness.Current()
		admin = t.User(harness.Admin)
		ch = t.NewChannel(harness.Public, t.User(harness.Member), t.User(harness.Admin))
		topic = harness.UniqueName("doomed")
	})

	DescribeTable("deletes",
		func(check func(doomed, kept []int, survivor string)) {
			doomed := []int{t.SendToChannel(t.User(harness.Member), ch, topic, "one"), t.SendToChannel(t.User(harness.Admin), ch, topic, "two")}
			survivor := harness.UniqueName("survivor")
			// Another topic of the channel, and the same topic in another channel.
			elsewhere := t.NewChannel(harness.Public, t.User(harness.Member), t.User(harness.Admin))
			kept := []int{t.SendToChannel(t.User(harness.Member), ch, survivor, "stays"), t.SendToChannel(t.User(harness.Member), elsewhere, topic, "stays too")}
			ops.UntilComplete("delete topic", len(doomed), func() *httpexpect.Response { return ops.DeleteTopic(admin, ch, "topic_name", topic) })
			check(doomed, kept, survivor)
		},
		Entry("the topic's messages in the channel, and no other", harness.Req("OP08-01", "STATE-14"), func(doomed, kept []int, _ string) {
			for _, id := range doomed {
				Expect(ops.MessageGone(admin, id)).To(BeTrue(), "message %d of the deleted topic", id)
			}
			Expect(ops.MessageGone(admin, kept[0])).To(BeFalse(), "a message of another topic")
			Expect(ops.MessageGone(admin, kept[1])).To(BeFalse(), "a message of the topic of that name in another channel")
		}),
		Entry("with its messages the topic", harness.Req("RES-18"), func(_, _ []int, survivor string) {
			Expect(ops.TopicNamesOf(admin, ch)).To(Equal([]string{survivor}))
		}),
	)

	// The other way a topic loses its messages: one DELETE /messages/{id} each.
	It("removes from the topic list a topic emptied message by message", harness.Req("RES-18"), func() {
		doomed := []int{t.SendToChannel(t.User(harness.Member), ch, topic, "one"), t.SendToChannel(t.User(harness.Admin), ch, topic, "two")}
		survivor := harness.UniqueName("survivor")
		t.SendToChannel(t.User(harness.Member), ch, survivor, "stays")
		Expect(ops.TopicNamesOf(admin, ch)).To(ConsistOf(topic, survivor))
		for _, id := range doomed {
			harness.Success(ops.DeleteMessage(admin, id))
		}
		Expect(ops.TopicNamesOf(admin, ch)).To(Equal([]string{survivor}))
	})

	// A topic is a field on messages: one whose messages all moved to another topic has none
	// left, and a topic list kept apart from the messages would still show it.
	It("removes from the topic list a topic whose messages all moved to another topic", harness.Req("RES-18"), func() {
		first := t.SendToChannel(t.User(harness.Member), ch, topic, "one")
		t.SendToChannel(t.User(harness.Admin), ch, topic, "two")
		moved := harness.UniqueName("moved")
		harness.Success(ops.EditMessage(admin, first, "topic", moved, "propagate_mode", "change_all"))
		Expect(ops.TopicNamesOf(admin, ch)).To(Equal([]string{moved}))
	})

	It("answers complete = true when it deleted every message of the topic", harness.Req("OP08-04"), func() {
		ids := []int{t.SendToChannel(t.User(harness.Member), ch, topic, "one"), t.SendToChannel(t.User(harness.Admin), ch, topic, "two")}
		ops.UntilComplete("delete topic", len(ids), func() *httpexpect.Response { return ops.DeleteTopic(admin, ch, "topic_name", topic) })
		for _, id := range ids {
			Expect(ops.MessageGone(admin, id)).To(BeTrue(), "message %d of the deleted topic", id)
		}
	})

	// A private channel's deletion is its subscribers' news: no one else's queue hears of it.
	It("tells only those who could read the topic of its deletion", harness.Req("EVENT-07"), func() {
		private := t.NewChannel(harness.PrivateShared, t.User(harness.Member), t.User(harness.Admin))
		doomed := t.SendToChannel(t.User(harness.Member), private, topic, "in a private channel")
		outsider := t.Spare(harness.Member)
		events := t.Listen(outsider, "delete_message")
		ops.UntilComplete("delete topic", 1, func() *httpexpect.Response { return ops.DeleteTopic(admin, private, "topic_name", topic) })
		Expect(ops.MessageGone(admin, doomed)).To(BeTrue())
		for _, ev := range events.Collect(ops.EventWait) {
			Expect(ev).NotTo(HaveKeyWithValue("stream_id", BeNumerically("==", private.ID)), "the deletion in a private channel reached a non-subscriber's queue")
		}
	})

	It("requires topic_name", harness.Req("OP08-02"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "stays")
		harness.Fails(ops.DeleteTopic(admin, ch))
		Expect(ops.MessageGone(admin, id)).To(BeFalse())
	})

	It("reads topic_name = realm_empty_topic_display_name as the empty topic", harness.Req("OP08-03"), func() {
		id := t.SendToEmptyTopic(t.User(harness.Member), ch)
		display := t.Realm.EmptyTopicDisplayName
		ops.UntilComplete("delete topic", 1, func() *httpexpect.Response { return ops.DeleteTopic(admin, ch, "topic_name", display) })
		Expect(ops.MessageGone(admin, id)).To(BeTrue())
	})

	It("deletes a topic whose name is max_topic_length long, named in full", harness.Req("LIMIT-02"), func() {
		full := topic + strings.Repeat("x", t.Realm.MaxTopicLength-len([]rune(topic)))
		id := t.SendToChannel(t.User(harness.Member), ch, full, "at the bound")
		kept := t.SendToChannel(t.User(harness.Member), ch, topic, "another topic")
		harness.Success(ops.DeleteTopic(admin, ch, "topic_name", full))
		Expect(ops.MessageGone(admin, id)).To(BeTrue(), "the message of the topic at the bound")
		Expect(ops.MessageGone(admin, kept)).To(BeFalse(), "a message of a topic its name starts with")
	})

	It("matches no topic with a topic_name longer than max_topic_length", harness.Req("LIMIT-02"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "stays")
		long := topic + strings.Repeat("x", t.Realm.MaxTopicLength)
		resp := ops.DeleteTopic(admin, ch, "topic_name", long)
		if !ops.Succeeded(resp) {
			harness.Fails(resp)
		}
		Expect(ops.MessageGone(admin, id)).To(BeFalse())
	})

	DescribeTable("answers UNAUTHORIZED_PRINCIPAL to a requester who is not an administrator",
		func(role harness.Role) {
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "stays")
			harness.FailsWith(ops.DeleteTopic(t.User(role), ch, "topic_name", topic), "UNAUTHORIZED_PRINCIPAL")
			Expect(ops.MessageGone(admin, id)).To(BeFalse())
		},
		Entry("a moderator", harness.Req("OP08-06", "ERR-11"), harness.Moderator),
		Entry("a member", harness.Req("OP08-06", "ERR-11"), harness.Member),
	)

	// One batch of two out of five: the first answer says complete = false.
	DescribeTable("deletes in batches", Serial,
		func(check func(ids []int)) {
			var ids []int
			for i := range 5 {
				ids = append(ids, t.SendToChannel(t.User(harness.Member), ch, topic, "message "+ops.MsgIDText(i)))
			}
			t.LimitBatches(2, 1)
			check(ids)
		},
		Entry("newest first", harness.Req("STATE-15"), func(ids []int) {
			harness.Success(ops.DeleteTopic(admin, ch, "topic_name", topic))
			for i, id := range ids {
				Expect(ops.MessageGone(admin, id)).To(Equal(i >= 3), "message %d of 5 after one batch of two", i+1)
			}
		}),
		Entry("answering complete = false when it stopped early; repeating finishes", harness.Req("OP08-05", "STATE-15", "ERR-02"), func(ids []int) {
			harness.Success(ops.DeleteTopic(admin, ch, "topic_name", topic)).Value("complete").Boolean().IsFalse()
			for range len(ids) {
				if harness.Success(ops.DeleteTopic(admin, ch, "topic_name", topic)).Value("complete").Boolean().Raw() {
					break
				}
			}
			for _, id := range ids {
				Expect(ops.MessageGone(admin, id)).To(BeTrue())
			}
			Expect(ops.TopicNamesOf(admin, ch)).To(BeEmpty())
		}),
	)

	It("answers result partially_completed with a code when it stopped early, below level 211", Serial, harness.Req("VER-29"), func() {
		first := t.SendToChannel(t.User(harness.Member), ch, topic, "older")
		for range 3 {
			t.SendToChannel(t.User(harness.Member), ch, topic, "newer")
		}
		t.LimitBatches(2, 1)
		ops.Partial(ops.DeleteTopic(admin, ch, "topic_name", topic))
		Expect(ops.MessageGone(admin, first)).To(BeFalse(), "the oldest message, beyond the batch done")
	})
})
