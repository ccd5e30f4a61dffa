package specs

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// The specs below change realm settings or move the clock, so they run alone.
var _ = Describe("Operation 1: move time limits and wildcard mentions (PATCH /messages/{message_id})", Serial, func() {
	var (
		t         *harness.Target
		member    harness.User
		moderator harness.User
		ch        harness.Channel
		topic     string
	)
	BeforeEach(func() {
		t = harness.Current()
		member, moderator = t.User(harness.Member), t.User(harness.Moderator)
		ch = t.NewChannel(harness.Public, t.User(harness.Member), t.User(harness.Moderator))
		topic = harness.UniqueName("limits")
	})

	Describe("move time limits", func() {
		const limit = 100 // seconds
		BeforeEach(func() {
			t.NeedCapability("clock")
			// Both limits are set below, for specs of other requirements too (ERR-04): they
			// need the levels where the settings exist.
			ops.NeedLevelOf(t, "LIMIT-06")
			ops.NeedLevelOf(t, "LIMIT-07")
			t.LetMembersMove()
			t.ChangeRealmSetting("move_messages_within_stream_limit_seconds", limit)
			t.ChangeRealmSetting("move_messages_between_streams_limit_seconds", limit)
		})

		It("keeps non-moderators from moving messages older than move_messages_within_stream_limit_seconds to another topic",
			harness.Req("LIMIT-06"), func() {
				// The other limit far away: the topic move is bounded by its own limit.
				t.ChangeRealmSetting("move_messages_between_streams_limit_seconds", 100*limit)
				id := t.SendToChannel(t.User(harness.Member), ch, topic, "getting old")
				t.PassTime(10 * limit * time.Second)
				harness.Fails(ops.EditMessage(member, id, "topic", harness.UniqueName("late")))
				ops.ExpectTopicOf(member, topic, id)
				moved := harness.UniqueName("by-moderator")
				harness.Success(ops.EditMessage(moderator, id, "topic", moved))
				ops.ExpectTopicOf(member, moved, id)
			})

		It("keeps non-moderators from moving messages older than move_messages_between_streams_limit_seconds to another channel",
			harness.Req("LIMIT-07"), func() {
				t.ChangeRealmSetting("move_messages_within_stream_limit_seconds", 100*limit)
				other := t.NewChannel(harness.Public, t.User(harness.Member), t.User(harness.Moderator))
				id := t.SendToChannel(t.User(harness.Member), ch, topic, "getting old")
				t.PassTime(10 * limit * time.Second)
				harness.Fails(ops.EditMessage(member, id, "stream_id", other.ID))
				channelID, _ := ops.Where(member, id)
				Expect(channelID).To(Equal(ch.ID))
				harness.Success(ops.EditMessage(moderator, id, "stream_id", other.ID))
				channelID, _ = ops.Where(member, id)
				Expect(channelID).To(Equal(other.ID))
			})

		// A move past its limit is an edit the requester lacks permission for: rule 2 gives it
		// BAD_REQUEST (only a change_all move has a code of its own, rule 3).
		DescribeTable("refuses a member's move past its time limit with BAD_REQUEST",
			func(farLimit string, move func() []any) {
				t.ChangeRealmSetting(farLimit, 100*limit)
				id := t.SendToChannel(t.User(harness.Member), ch, topic, "getting old")
				t.PassTime(10 * limit * time.Second)
				harness.FailsWith(ops.EditMessage(member, id, move()...), "BAD_REQUEST")
			},
			Entry("to another topic", harness.Req("ERR-04"), "move_messages_between_streams_limit_seconds", func() []any {
				return []any{"topic", harness.UniqueName("late")}
			}),
			Entry("to another channel", harness.Req("ERR-04"), "move_messages_within_stream_limit_seconds", func() []any {
				return []any{"stream_id", t.NewChannel(harness.Public, t.User(harness.Member)).ID}
			}),
		)

		Describe("a whole-topic move (change_all) when part of the topic is older than the limit", func() {
			var old, recent []int
			BeforeEach(func() {
				old = []int{t.SendToChannel(t.User(harness.Member), ch, topic, "old one"), t.SendToChannel(t.User(harness.Member), ch, topic, "old two")}
				t.PassTime(10 * limit * time.Second)
				recent = []int{t.SendToChannel(t.User(harness.Member), ch, topic, "recent one"), t.SendToChannel(t.User(harness.Member), ch, topic, "recent two")}
			})

			// refuse is the whole-topic move a member may not make; it must move nothing.
			refuse := func(renamed string) *httpexpect.Object {
				GinkgoHelper()
				refused := harness.FailsWith(ops.EditMessage(member, recent[1], "topic", renamed, "propagate_mode", "change_all"),
					"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED")
				ops.ExpectTopicOf(member, topic, append(old, recent...)...)
				return refused
			}

			It("answers MOVE_MESSAGES_TIME_LIMIT_EXCEEDED to a non-moderator and moves nothing", harness.Req("OP01-20", "ERR-05", "VER-15"), func() {
				refuse(harness.UniqueName("refused"))
			})

			// The rule is the topic's, whichever way it moves: a channel move too.
			It("answers it to a whole-topic move to another channel as well", harness.Req("ERR-05"), func() {
				other := t.NewChannel(harness.Public, t.User(harness.Member))
				harness.FailsWith(ops.EditMessage(member, recent[1], "stream_id", other.ID, "propagate_mode", "change_all"),
					"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED")
				channelID, _ := ops.Where(member, recent[1])
				Expect(channelID).To(Equal(ch.ID))
			})

			It("says from which message on it may move", harness.Req("ERR-06"), func() {
				refuse(harness.UniqueName("refused")).Value("first_message_id_allowed_to_move").Number().IsInt().IsEqual(recent[0])
			})

			It("says how many messages it may move, of how many", harness.Req("ERR-07"), func() {
				refused := refuse(harness.UniqueName("refused"))
				refused.Value("total_messages_allowed_to_move").Number().IsInt().IsEqual(len(recent))
				refused.Value("total_messages_in_topic").Number().IsInt().IsEqual(len(old) + len(recent))
			})

			It("moves from first_message_id_allowed_to_move with change_later", harness.Req("OP01-22"), func() {
				renamed := harness.UniqueName("recent-only")
				first := int(refuse(renamed).Value("first_message_id_allowed_to_move").Number().Raw())
				harness.Success(ops.EditMessage(member, first, "topic", renamed, "propagate_mode", "change_later"))
				ops.ExpectTopicOf(member, renamed, recent...)
				ops.ExpectTopicOf(member, topic, old...)
			})

			DescribeTable("lets moderators and administrators move the whole topic",
				func(role harness.Role) {
					renamed := harness.UniqueName("whole")
					harness.Success(ops.EditMessage(t.User(role), recent[1], "topic", renamed, "propagate_mode", "change_all"))
					ops.ExpectTopicOf(member, renamed, append(old, recent...)...)
				},
				Entry("a moderator", harness.Req("OP01-21"), harness.Moderator),
				Entry("an administrator", harness.Req("OP01-21"), harness.Admin),
			)
		})

		It("in a private channel with protected history counts and moves only the messages the requester can access (rule 4)",
			harness.Req("OP01-23"), func() {
				admin := t.User(harness.Admin) // a subscriber from the start
				private := t.NewChannel(harness.PrivateProtected, admin)
				hidden := t.SendToChannel(admin, private, topic, "sent before the member joined")
				t.PassTime(10 * limit * time.Second)
				t.Subscribe(private, t.User(harness.Member))
				recent := []int{
					t.SendToChannel(admin, private, topic, "sent after the member joined"),
					t.SendToChannel(t.User(harness.Member), private, topic, "the member's own"),
				}
				renamed := harness.UniqueName("accessible")
				harness.Success(ops.EditMessage(member, recent[1], "topic", renamed, "propagate_mode", "change_all"))
				ops.ExpectTopicOf(admin, renamed, recent...)
				ops.ExpectTopicOf(admin, topic, hidden)
			})
	})

	Describe("wildcard mentions and can_mention_many_users_group", func() {
		var (
			admin harness.User
			crowd []harness.User
		)
		BeforeEach(func() {
			admin = t.User(harness.Admin)
			// "Many" subscribers or participants: the document gives no number; the harness
			// knows the threshold from the settings, or from the fake, or skips the spec.
			crowd = t.Crowd(t.WildcardMentionCrowdSize())
			t.ChangeRealmGroupSetting("can_mention_many_users_group", t.SystemGroupID("role:administrators"))
		})

		// crowdedChannel is a channel with many subscribers.
		crowdedChannel := func() harness.Channel {
			crowded := t.NewChannel(harness.Public, t.User(harness.Member), t.User(harness.Admin))
			t.Subscribe(crowded, crowd...)
			return crowded
		}
		// crowdedTopic fills a topic with many participants.
		crowdedTopic := func(in harness.Channel) string {
			busy := harness.UniqueName("busy")
			for _, u := range crowd {
				t.SendToChannel(u, in, busy, "here")
			}
			return busy
		}

		It("keeps channel wildcard mentions in channels with many subscribers to members of the group, on send",
			harness.Req("LIMIT-14", "ERR-08"), func() {
				crowded := crowdedChannel()
				send := func(u harness.User, in harness.Channel) bool {
					return ops.Succeeded(ops.SendMessage(u, "type", "stream", "to", in.ID,
						"topic", topic, "content", "@**all** please read"))
				}
				harness.FailsWith(ops.SendMessage(member, "type", "stream", "to", crowded.ID,
					"topic", topic, "content", "@**all** please read"), "STREAM_WILDCARD_MENTION_NOT_ALLOWED")
				Expect(send(admin, crowded)).To(BeTrue(), "an administrator (in the group) mentions the channel")
				Expect(send(member, ch)).To(BeTrue(), "a member mentions a channel with few subscribers")
			})

		It("keeps topic wildcard mentions in topics with many participants to members of the group, on send",
			harness.Req("LIMIT-14", "ERR-09"), func() {
				busy := crowdedTopic(ch)
				harness.FailsWith(ops.SendMessage(member, "type", "stream", "to", ch.ID,
					"topic", busy, "content", "@**topic** please read"), "TOPIC_WILDCARD_MENTION_NOT_ALLOWED")
				harness.Success(ops.SendMessage(admin, "type", "stream", "to", ch.ID,
					"topic", busy, "content", "@**topic** please read"))
				// A topic with few participants, in the same channel: the member may.
				harness.Success(ops.SendMessage(member, "type", "stream", "to", ch.ID,
					"topic", harness.UniqueName("quiet"), "content", "@**topic** please read"))
			})

		It("answers STREAM_WILDCARD_MENTION_NOT_ALLOWED to an edit adding a channel wildcard mention in a channel with many subscribers (rule 5)",
			harness.Req("OP01-24", "ERR-08", "LIMIT-13"), func() {
				crowded := crowdedChannel()
				id := t.SendToChannel(t.User(harness.Member), crowded, topic, "hello")
				harness.FailsWith(ops.EditMessage(member, id, "content", "hello @**all**"), "STREAM_WILDCARD_MENTION_NOT_ALLOWED")
				Expect(ops.RawContent(member, id)).To(Equal("hello"))
				mine := t.SendToChannel(t.User(harness.Admin), crowded, topic, "hello")
				harness.Success(ops.EditMessage(admin, mine, "content", "hello @**all**"))
				// A channel with few subscribers: the member may.
				few := t.SendToChannel(t.User(harness.Member), ch, topic, "hello")
				harness.Success(ops.EditMessage(member, few, "content", "hello @**all**"))
				Expect(ops.RawContent(member, few)).To(Equal("hello @**all**"))
			})

		It("answers TOPIC_WILDCARD_MENTION_NOT_ALLOWED to an edit adding a topic wildcard mention in a topic with many participants (rule 5)",
			harness.Req("OP01-25", "ERR-09", "LIMIT-13"), func() {
				busy := crowdedTopic(ch)
				id := t.SendToChannel(t.User(harness.Member), ch, busy, "hello")
				harness.FailsWith(ops.EditMessage(member, id, "content", "hello @**topic**"), "TOPIC_WILDCARD_MENTION_NOT_ALLOWED")
				Expect(ops.RawContent(member, id)).To(Equal("hello"))
				mine := t.SendToChannel(t.User(harness.Admin), ch, busy, "hello")
				harness.Success(ops.EditMessage(admin, mine, "content", "hello @**topic**"))
				// A topic with few participants, in the same channel: the member may.
				few := t.SendToChannel(t.User(harness.Member), ch, harness.UniqueName("quiet"), "hello")
				harness.Success(ops.EditMessage(member, few, "content", "hello @**topic**"))
				Expect(ops.RawContent(member, few)).To(Equal("hello @**topic**"))
			})
	})
})
