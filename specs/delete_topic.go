package specs

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// deleteTopic sends POST /streams/{id}/delete_topic as u; no topic_name when topic is nil.
func (o msgOps) deleteTopic(u harness.User, ch harness.Channel, topic *string) *httpexpect.Response {
	if topic == nil {
		return sendForm(u, "POST", "/streams/{id}/delete_topic", ch.ID)
	}
	return sendForm(u, "POST", "/streams/{id}/delete_topic", ch.ID, "topic_name", *topic)
}

// gone reports whether u can no longer fetch the message. A fetch that does not succeed must
// be the error envelope (result, code, msg): a crash or an empty reply proves no deletion.
func (msgOps) gone(u harness.User, id int) bool {
	GinkgoHelper()
	r := harness.Current().AsUser(u).GET("/messages/{id}", id).Expect()
	if msgs.succeeded(r) {
		return false
	}
	harness.Fails(r)
	return true
}

var _ = Describe("Operation 8: delete a topic (POST /streams/{stream_id}/delete_topic)", func() {
	var (
		t     *harness.Target
		admin harness.User
		ch    harness.Channel
		topic string
	)
	BeforeEach(func() {
		t = harness.Current()
		admin = t.Users[harness.Admin]
		ch = t.NewChannel(harness.Public, harness.Member, harness.Admin)
		topic = harness.UniqueName("doomed")
	})

	DescribeTable("deletes",
		func(check func(doomed, kept []int, survivor string)) {
			doomed := []int{t.SendToChannel(harness.Member, ch, topic, "one"), t.SendToChannel(harness.Owner, ch, topic, "two")}
			survivor := harness.UniqueName("survivor")
			// Another topic of the channel, and the same topic in another channel.
			elsewhere := t.NewChannel(harness.Public, harness.Member, harness.Admin)
			kept := []int{t.SendToChannel(harness.Member, ch, survivor, "stays"), t.SendToChannel(harness.Member, elsewhere, topic, "stays too")}
			untilComplete("delete topic", len(doomed), func() *httpexpect.Response { return msgs.deleteTopic(admin, ch, &topic) })
			check(doomed, kept, survivor)
		},
		Entry("the topic's messages in the channel, and no other", harness.Req("OP08-01", "STATE-14"), func(doomed, kept []int, _ string) {
			for _, id := range doomed {
				Expect(msgs.gone(admin, id)).To(BeTrue(), "message %d of the deleted topic", id)
			}
			Expect(msgs.gone(admin, kept[0])).To(BeFalse(), "a message of another topic")
			Expect(msgs.gone(admin, kept[1])).To(BeFalse(), "a message of the topic of that name in another channel")
		}),
		Entry("with its messages the topic", harness.Req("RES-18"), func(_, _ []int, survivor string) {
			Expect(msgs.topicNamesOf(admin, ch)).To(Equal([]string{survivor}))
		}),
	)

	It("answers complete = true when it deleted every message of the topic", harness.Req("OP08-04"), func() {
		t.NeedLevel(211) // before, a request that stopped early was an error, not complete = false
		ids := []int{t.SendToChannel(harness.Member, ch, topic, "one"), t.SendToChannel(harness.Owner, ch, topic, "two")}
		untilComplete("delete topic", len(ids), func() *httpexpect.Response { return msgs.deleteTopic(admin, ch, &topic) })
		for _, id := range ids {
			Expect(msgs.gone(admin, id)).To(BeTrue(), "message %d of the deleted topic", id)
		}
	})

	// A private channel's deletion is its subscribers' news: no one else's queue hears of it.
	It("tells only those who could read the topic of its deletion", harness.Req("EVENT-07", "OP08-01"), func() {
		private := t.NewChannel(harness.PrivateShared, harness.Member, harness.Admin)
		doomed := t.SendToChannel(harness.Member, private, topic, "in a private channel")
		outsider := t.NewUser(harness.Member)
		events := t.ListenAs(outsider, "delete_message")
		untilComplete("delete topic", 1, func() *httpexpect.Response { return msgs.deleteTopic(admin, private, &topic) })
		Expect(msgs.gone(admin, doomed)).To(BeTrue())
		for _, ev := range events.Collect(eventWait) {
			Expect(ev).NotTo(HaveKeyWithValue("stream_id", BeNumerically("==", private.ID)), "the deletion in a private channel reached a non-subscriber's queue")
		}
	})

	It("requires topic_name", harness.Req("OP08-02"), func() {
		id := t.SendToChannel(harness.Member, ch, topic, "stays")
		harness.Fails(msgs.deleteTopic(admin, ch, nil))
		Expect(msgs.gone(admin, id)).To(BeFalse())
	})

	It("reads topic_name = realm_empty_topic_display_name as the empty topic", harness.Req("OP08-03"), func() {
		t.NeedLevel(334)
		id := t.SendToEmptyTopic(harness.Member, ch)
		display := t.Realm.EmptyTopicDisplayName
		untilComplete("delete topic", 1, func() *httpexpect.Response { return msgs.deleteTopic(admin, ch, &display) })
		Expect(msgs.gone(admin, id)).To(BeTrue())
	})

	It("deletes a topic whose name is max_topic_length long, named in full", harness.Req("LIMIT-02"), func() {
		full := topic + strings.Repeat("x", t.Realm.MaxTopicLength-len([]rune(topic)))
		id := t.SendToChannel(harness.Member, ch, full, "at the bound")
		kept := t.SendToChannel(harness.Member, ch, topic, "another topic")
		harness.Success(msgs.deleteTopic(admin, ch, &full))
		Expect(msgs.gone(admin, id)).To(BeTrue(), "the message of the topic at the bound")
		Expect(msgs.gone(admin, kept)).To(BeFalse(), "a message of a topic its name starts with")
	})

	It("matches no topic with a topic_name longer than max_topic_length", harness.Req("LIMIT-02"), func() {
		id := t.SendToChannel(harness.Member, ch, topic, "stays")
		long := topic + strings.Repeat("x", t.Realm.MaxTopicLength)
		resp := msgs.deleteTopic(admin, ch, &long)
		if !msgs.succeeded(resp) {
			harness.Fails(resp)
		}
		Expect(msgs.gone(admin, id)).To(BeFalse())
	})

	DescribeTable("answers UNAUTHORIZED_PRINCIPAL to a requester who is not an administrator",
		func(role harness.Role) {
			id := t.SendToChannel(harness.Member, ch, topic, "stays")
			harness.FailsWith(msgs.deleteTopic(t.Users[role], ch, &topic), "UNAUTHORIZED_PRINCIPAL")
			Expect(msgs.gone(admin, id)).To(BeFalse())
		},
		Entry("a moderator", harness.Req("OP08-06", "ERR-11"), harness.Moderator),
		Entry("a member", harness.Req("OP08-06", "ERR-11"), harness.Member),
	)

	// One batch of two out of five: the first answer says complete = false.
	DescribeTable("deletes in batches", Serial,
		func(check func(ids []int)) {
			t.NeedLevel(211)
			var ids []int
			for i := range 5 {
				ids = append(ids, t.SendToChannel(harness.Member, ch, topic, "message "+msgIDText(i)))
			}
			t.LimitBatches(2, 1)
			check(ids)
		},
		Entry("newest first", harness.Req("STATE-15"), func(ids []int) {
			harness.Success(msgs.deleteTopic(admin, ch, &topic))
			for i, id := range ids {
				Expect(msgs.gone(admin, id)).To(Equal(i >= 3), "message %d of 5 after one batch of two", i+1)
			}
		}),
		Entry("answering complete = false when it stopped early; repeating finishes", harness.Req("OP08-05", "STATE-15", "ERR-02"), func(ids []int) {
			harness.Success(msgs.deleteTopic(admin, ch, &topic)).Value("complete").Boolean().IsFalse()
			for range len(ids) {
				if harness.Success(msgs.deleteTopic(admin, ch, &topic)).Value("complete").Boolean().Raw() {
					break
				}
			}
			for _, id := range ids {
				Expect(msgs.gone(admin, id)).To(BeTrue())
			}
			Expect(msgs.topicNamesOf(admin, ch)).To(BeEmpty())
		}),
	)

	It("answers result partially_completed with a code when it stopped early, below level 211", Serial, harness.Req("VER-29"), func() {
		t.NeedLevelBelow(211)
		first := t.SendToChannel(harness.Member, ch, topic, "older")
		for range 3 {
			t.SendToChannel(harness.Member, ch, topic, "newer")
		}
		t.LimitBatches(2, 1)
		partial(msgs.deleteTopic(admin, ch, &topic))
		Expect(msgs.gone(admin, first)).To(BeFalse(), "the oldest message, beyond the batch done")
	})
})
