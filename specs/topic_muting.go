package specs

import (
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// muteTopic sends the topic muting request as u with the given parameters.
func (o msgOps) muteTopic(u harness.User, kv ...any) *httpexpect.Response {
	return sendForm(u, "PATCH", "/users/me/subscriptions/muted_topics", nil, kv...)
}

// mutedTopics lists the topics u has muted in a channel, from the registration state:
// user_topics (visibility_policy 1 is muted), or the older muted_topics pairs.
func (msgOps) mutedTopics(u harness.User, ch harness.Channel) []string {
	GinkgoHelper()
	state := harness.Current().StateOf(u, "user_topic", "muted_topics").Raw()
	muted := []string{}
	if list, ok := state["user_topics"].([]any); ok {
		for _, item := range list {
			ut, _ := item.(map[string]any)
			if ut["stream_id"] == float64(ch.ID) && ut["visibility_policy"] == float64(1) {
				muted = append(muted, ut["topic_name"].(string))
			}
		}
		return muted
	}
	list, _ := state["muted_topics"].([]any)
	for _, item := range list {
		pair, _ := item.([]any)
		if len(pair) >= 2 && pair[0] == ch.Name {
			muted = append(muted, pair[1].(string))
		}
	}
	return muted
}

var _ = Describe("Operation 3: topic muting (PATCH /users/me/subscriptions/muted_topics)", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
	)
	BeforeEach(func() {
		t, member, ch, topic = memberChannel("noise")
		t.SendToChannel(harness.Admin, ch, topic, "chatter")
	})

	It("answers a success envelope to op=add and op=remove", harness.Req("OP03-08"), func() {
		harness.BareSuccess(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		harness.BareSuccess(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "remove"))
	})

	It("mutes the topic for the subscribed requester, and no one else, with op=add", harness.Req("OP03-06", "STATE-04", "VER-05"), func() {
		harness.Success(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		Expect(msgs.mutedTopics(member, ch)).To(ConsistOf(topic))
		Expect(msgs.mutedTopics(t.Users[harness.Owner], ch)).To(BeEmpty(), "another user's muted topics")
	})

	// Muting is the requester's own setting: another user's queue gets no event of it, of
	// either kind (user_topic, or the older muted_topics list).
	It("tells no other user's queue of the muting", harness.Req("EVENT-07"), func() {
		outsider := t.NewUser(harness.Member)
		t.SubscribeUsers(ch, outsider)
		events := t.ListenAs(outsider, "user_topic", "muted_topics")
		harness.Success(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		for _, ev := range events.Collect(eventWait) {
			Expect(jsonText(ev)).NotTo(ContainSubstring(topic), "another user's topic muting reached the queue: %v", ev)
		}
	})

	It("unmutes the topic with op=remove", harness.Req("OP03-07", "STATE-07"), func() {
		harness.Success(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		harness.Success(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "remove"))
		Expect(msgs.mutedTopics(member, ch)).To(BeEmpty())
	})

	It("accepts the channel name in stream in place of stream_id", harness.Req("OP03-02"), func() {
		harness.BareSuccess(msgs.muteTopic(member, "stream", ch.Name, "topic", topic, "op", "add"))
		Expect(msgs.mutedTopics(member, ch)).To(ConsistOf(topic))
	})

	It("succeeds when the topic is already muted", harness.Req("STATE-05"), func() {
		needCatalogLevels(t) // an error before 169 on the real server
		harness.BareSuccess(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		harness.BareSuccess(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "add"))
		Expect(msgs.mutedTopics(member, ch)).To(ConsistOf(topic))
	})

	It("succeeds in muting a topic that has no messages", harness.Req("STATE-06"), func() {
		empty := harness.UniqueName("silent")
		harness.BareSuccess(msgs.muteTopic(member, "stream_id", ch.ID, "topic", empty, "op", "add"))
		Expect(msgs.mutedTopics(member, ch)).To(ConsistOf(empty))
	})

	It("succeeds in unmuting a topic that is not muted", harness.Req("STATE-08"), func() {
		needCatalogLevels(t) // an error before 169 on the real server
		harness.BareSuccess(msgs.muteTopic(member, "stream_id", ch.ID, "topic", topic, "op", "remove"))
		Expect(msgs.mutedTopics(member, ch)).To(BeEmpty())
	})

	It("refuses a request with neither stream_id nor stream", harness.Req("OP03-01"), func() {
		harness.Fails(msgs.muteTopic(member, "topic", topic, "op", "add"))
		Expect(msgs.mutedTopics(member, ch)).To(BeEmpty())
	})

	It("refuses both stream_id and stream, even when they name the same channel", harness.Req("OP03-01"), func() {
		harness.Fails(msgs.muteTopic(member, "stream_id", ch.ID, "stream", ch.Name, "topic", topic, "op", "add"))
		Expect(msgs.mutedTopics(member, ch)).To(BeEmpty())
	})

	It("requires topic", harness.Req("OP03-03"), func() {
		harness.Fails(msgs.muteTopic(member, "stream_id", ch.ID, "op", "add"))
	})

	// The bound's other side: a topic of exactly max_topic_length characters is within it.
	It("mutes a topic of exactly max_topic_length characters", harness.Req("OP03-04", "LIMIT-02"), func() {
		atLimit := topic + strings.Repeat("m", t.Realm.MaxTopicLength-utf8.RuneCountInString(topic))
		harness.Success(msgs.muteTopic(member, "stream_id", ch.ID, "topic", atLimit, "op", "add"))
		Expect(msgs.mutedTopics(member, ch)).To(ConsistOf(atLimit))
	})

	// The document bounds the topic by max_topic_length without saying whether a longer one
	// is refused or shortened: either way no muted topic exceeds the bound.
	It("mutes no topic longer than max_topic_length", harness.Req("OP03-04", "LIMIT-02"), func() {
		long := strings.Repeat("m", t.Realm.MaxTopicLength+1)
		resp := msgs.muteTopic(member, "stream_id", ch.ID, "topic", long, "op", "add")
		muted := msgs.mutedTopics(member, ch)
		if !msgs.succeeded(resp) {
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
			harness.Fails(msgs.muteTopic(member, append([]any{"stream_id", ch.ID, "topic", topic}, kv...)...))
			Expect(msgs.mutedTopics(member, ch)).To(BeEmpty())
		},
		Entry("missing", harness.Req("OP03-05")),
		Entry("another value", harness.Req("OP03-05"), "op", "mute"),
	)

	It("needs a subscription to a private channel", harness.Req("STATE-04"), func() {
		private := t.NewChannel(harness.PrivateShared)
		harness.Fails(msgs.muteTopic(member, "stream_id", private.ID, "topic", topic, "op", "add"))
		Expect(msgs.mutedTopics(member, private)).To(BeEmpty())
	})

	// The document's guard is a subscription; the real server asks only for access, which a
	// public channel gives without one. Either is accepted, never half of one: a refusal
	// mutes nothing, a success mutes the topic.
	It("mutes a topic of a public channel the requester is not subscribed to, or refuses and mutes nothing", harness.Req("STATE-04"), func() {
		public := t.NewChannel(harness.Public)
		t.SendToChannel(harness.Admin, public, topic, "chatter")
		resp := msgs.muteTopic(member, "stream_id", public.ID, "topic", topic, "op", "add")
		if !msgs.succeeded(resp) {
			harness.Fails(resp)
			Expect(msgs.mutedTopics(member, public)).To(BeEmpty(), "a refused request muted the topic")
			harness.Info("muting without a subscription", "refused, as the document's guard says")
			return
		}
		Expect(msgs.mutedTopics(member, public)).To(ConsistOf(topic))
		harness.Info("muting without a subscription", "muted, as the real server does for a public channel")
	})
})
