package specs

import (
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 3: topic muting (PATCH /users/me/subscriptions/muted_topics)", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
	)
	BeforeEach(func() {
		t, member, ch, topic = ops.MemberChannel("noise")
		t.SendToChannel(t.User(harness.Admin), ch, topic, "chatter")
	})

	It("answers a success envelope to op=add and op=remove", harness.Req("OP03-08"), func() {
		harness.BareSuccess(ops.MuteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		harness.BareSuccess(ops.MuteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "remove"))
	})

	It("mutes the topic for the subscribed requester, and no one else, with op=add", harness.Req("OP03-06", "STATE-04", "VER-05"), func() {
		harness.Success(ops.MuteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		Expect(ops.MutedTopics(member, ch)).To(ConsistOf(topic))
		Expect(ops.MutedTopics(t.User(harness.Admin), ch)).To(BeEmpty(), "another user's muted topics")
	})

	// Muting is the requester's own setting: another user's queue gets no event of it, of
	// either kind (user_topic, or the older muted_topics list).
	It("tells no other user's queue of the muting", harness.Req("EVENT-07"), func() {
		outsider := t.Spare(harness.Member)
		t.Subscribe(ch, outsider)
		events := t.Listen(outsider, "user_topic", "muted_topics")
		harness.Success(ops.MuteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		for _, ev := range events.Collect(ops.EventWait) {
			Expect(ops.JSONText(ev)).NotTo(ContainSubstring(topic), "another user's topic muting reached the queue: %v", ev)
		}
	})

	// The channel named either way: by stream_id or by its name in stream (OP03-02).
	DescribeTable("unmutes the topic with op=remove",
		func(ref string, channel func() any) {
			harness.Success(ops.MuteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
			harness.Success(ops.MuteTopic(member, ref, channel(), "topic", topic, "op", "remove"))
			Expect(ops.MutedTopics(member, ch)).To(BeEmpty())
		},
		Entry("naming the channel by stream_id", harness.Req("OP03-07", "STATE-07"), "stream_id", func() any { return ch.ID }),
		Entry("naming the channel by stream", harness.Req("OP03-07", "STATE-07"), "stream", func() any { return ch.Name }),
	)

	It("accepts the channel name in stream in place of stream_id", harness.Req("OP03-02"), func() {
		harness.BareSuccess(ops.MuteTopic(member, "stream", ch.Name, "topic", topic, "op", "add"))
		Expect(ops.MutedTopics(member, ch)).To(ConsistOf(topic))
	})

	It("succeeds when the topic is already muted", harness.Req("STATE-05"), func() {
		harness.BareSuccess(ops.MuteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		harness.BareSuccess(ops.MuteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		Expect(ops.MutedTopics(member, ch)).To(ConsistOf(topic))
	})

	It("succeeds in muting a topic that has no messages", harness.Req("STATE-06"), func() {
		empty := harness.UniqueName("silent")
		harness.BareSuccess(ops.MuteTopic(member, "stream_id", ch.ID, "topic", empty, "op", "add"))
		Expect(ops.MutedTopics(member, ch)).To(ConsistOf(empty))
	})

	It("succeeds in unmuting a topic that is not muted", harness.Req("STATE-08"), func() {
		harness.BareSuccess(ops.MuteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "remove"))
		Expect(ops.MutedTopics(member, ch)).To(BeEmpty())
	})

	It("refuses a request with neither stream_id nor stream", harness.Req("OP03-01"), func() {
		harness.Fails(ops.MuteTopic(member, "topic", topic, "op", "add"))
		Expect(ops.MutedTopics(member, ch)).To(BeEmpty())
	})

	It("refuses both stream_id and stream, even when they name the same channel", harness.Req("OP03-01"), func() {
		harness.Fails(ops.MuteTopic(member, "stream_id", ch.ID, "stream", ch.Name, "topic", topic, "op", "add"))
		Expect(ops.MutedTopics(member, ch)).To(BeEmpty())
	})

	It("requires topic", harness.Req("OP03-03"), func() {
		harness.Fails(ops.MuteTopic(member, "stream_id", ch.ID, "op", "add"))
	})

	// The bound's other side: a topic of exactly max_topic_length characters is within it.
	It("mutes a topic of exactly max_topic_length characters", harness.Req("OP03-04", "LIMIT-02"), func() {
		atLimit := topic + strings.Repeat("m", t.Realm.MaxTopicLength-utf8.RuneCountInString(topic))
		harness.Success(ops.MuteTopic(member, "stream_id", ch.ID, "topic", atLimit, "op", "add"))
		Expect(ops.MutedTopics(member, ch)).To(ConsistOf(atLimit))
	})

	// The document bounds the topic by max_topic_length without saying whether a longer one
	// is refused or shortened: either way no muted topic exceeds the bound.
	It("mutes no topic longer than max_topic_length", harness.Req("OP03-04", "LIMIT-02"), func() {
		long := strings.Repeat("m", t.Realm.MaxTopicLength+1)
		resp := ops.MuteTopic(member, "stream_id", ch.ID, "topic", long, "op", "add")
		muted := ops.MutedTopics(member, ch)
		if !ops.Succeeded(resp) {
			harness.Fails(resp)
			Expect(muted).To(BeEmpty(), "a refused request muted a topic")
			return
		}
		harness.Success(resp)
		Expect(len(muted)).To(BeNumerically("<=", 1), "muted topics: %q", muted)
		for _, name := range muted {
			Expect(utf8.RuneCountInString(name)).To(BeNumerically("<=", t.Realm.MaxTopicLength), "the muted topic %q", name)
		}
	})

	DescribeTable("requires op, add or remove",
		func(kv ...any) {
			harness.Fails(ops.MuteTopic(member, append([]any{"stream_id", ch.ID, "topic", topic}, kv...)...))
			Expect(ops.MutedTopics(member, ch)).To(BeEmpty())
		},
		Entry("missing", harness.Req("OP03-05")),
		Entry("another value", harness.Req("OP03-05"), "op", "mute"),
	)

	It("needs a subscription to a private channel", harness.Req("STATE-04"), func() {
		private := t.NewChannel(harness.PrivateShared)
		harness.Fails(ops.MuteTopic(member, "stream_id", private.ID, "topic", topic, "op", "add"))
		Expect(ops.MutedTopics(member, private)).To(BeEmpty())
	})

	// A private channel the requester is not subscribed to is an invalid channel ID to them,
	// as one that does not exist is: BAD_REQUEST (Errors).
	DescribeTable("answers BAD_REQUEST for a channel ID the requester cannot mute in",
		func(channel func() int) {
			harness.FailsWith(ops.MuteTopic(member, "stream_id", channel(), "topic", topic, "op", "add"), "BAD_REQUEST")
		},
		Entry("one that does not exist", harness.Req("ERR-04"), func() int { return harness.UnusedID }),
		Entry("a private channel without a subscription", harness.Req("ERR-04"), func() int { return t.NewChannel(harness.PrivateShared).ID }),
	)

	// The document's guard is a subscription; the real server asks only for access, which a
	// public channel gives without one. Either is accepted, never half of one: a refusal
	// mutes nothing, a success mutes the topic.
	It("mutes a topic of a public channel the requester is not subscribed to, or refuses and mutes nothing", harness.Req("STATE-04"), func() {
		public := t.NewChannel(harness.Public)
		t.SendToChannel(t.User(harness.Admin), public, topic, "chatter")
		resp := ops.MuteTopic(member, "stream_id", public.ID, "topic", topic, "op", "add")
		if !ops.Succeeded(resp) {
			harness.Fails(resp)
			Expect(ops.MutedTopics(member, public)).To(BeEmpty(), "a refused request muted the topic")
			harness.Info("muting without a subscription", "refused, as the document's guard says")
			return
		}
		Expect(ops.MutedTopics(member, public)).To(ConsistOf(topic))
		harness.Info("muting without a subscription", "muted, as the real server does for a public channel")
	})
})
