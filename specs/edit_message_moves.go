package specs

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 1: move messages to another topic or channel (PATCH /messages/{message_id})", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
	)
	BeforeEach(func() { t, member, ch, topic = ops.MemberChannel("moves") })

	// sendThree sends three messages to the topic and returns their IDs, oldest first.
	sendThree := func() []int {
		return []int{
			t.SendToChannel(t.User(harness.Admin), ch, topic, "one"), // another sender's: change_all moves it too
			t.SendToChannel(t.User(harness.Member), ch, topic, "two"),
			t.SendToChannel(t.User(harness.Member), ch, topic, "three"),
		}
	}

	It("sets a new topic with topic", harness.Req("OP01-01"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "to be moved")
		renamed := harness.UniqueName("renamed")
		harness.Success(ops.EditMessage(member, id, "topic", renamed))
		ops.ExpectTopicOf(member, renamed, id)
	})

	It("accepts subject as the deprecated alias of topic", harness.Req("OP01-02", "VER-08"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "to be moved")
		renamed := harness.UniqueName("subject")
		harness.Success(ops.EditMessage(member, id, "subject", renamed))
		ops.ExpectTopicOf(member, renamed, id)
	})

	DescribeTable("propagate_mode chooses which messages of the topic move with the message edited",
		func(mode string, movedIdx []int) {
			ids := sendThree()
			renamed := harness.UniqueName("moved")
			params := []any{"topic", renamed}
			if mode != "" {
				params = append(params, "propagate_mode", mode)
			}
			harness.Success(ops.EditMessage(member, ids[1], params...))
			for i, id := range ids {
				want := topic
				for _, j := range movedIdx {
					if i == j {
						want = renamed
					}
				}
				ops.ExpectTopicOf(member, want, id)
			}
		},
		Entry("no propagate_mode: only the message (change_one is the default)", harness.Req("OP01-06"), "", []int{1}),
		Entry("change_one: only the message", harness.Req("OP01-06"), "change_one", []int{1}),
		Entry("change_later: the message and the later ones", harness.Req("OP01-07"), "change_later", []int{1, 2}),
		Entry("change_all: the whole topic", harness.Req("OP01-08"), "change_all", []int{0, 1, 2}),
	)

	It("moves a message to another channel with stream_id", harness.Req("OP01-17"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "to another channel")
		other := t.NewChannel(harness.Public, t.User(harness.Member))
		harness.Success(ops.EditMessage(member, id, "stream_id", other.ID))
		m := ops.MessageAs(member, id)
		m.Value("stream_id").Number().IsEqual(other.ID)
		m.Value("display_recipient").String().IsEqual(other.Name)
	})

	// One spec a field rule of the entry a move records: a move to another channel, or to
	// another topic (prev_topic is named from level 118: the catalog gates the spec).
	type moved struct {
		fromChannel, toChannel int
		fromTopic, toTopic     string
	}
	DescribeTable("records in the edit history",
		func(toChannel bool, check func(entry *httpexpect.Object, m moved)) {
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "moved")
			m := moved{fromChannel: ch.ID, toChannel: ch.ID, fromTopic: topic, toTopic: topic}
			if toChannel {
				m.toChannel = t.NewChannel(harness.Public, t.User(harness.Member)).ID
				harness.Success(ops.EditMessage(member, id, "stream_id", m.toChannel))
			} else {
				m.toTopic = harness.UniqueName("renamed")
				harness.Success(ops.EditMessage(member, id, "topic", m.toTopic))
			}
			check(ops.MessageAs(member, id).Value("edit_history").Array().Value(0).Object(), m)
		},
		Entry("of a channel move: prev_stream and stream", harness.Req("MSG-42"), true, func(e *httpexpect.Object, m moved) {
			e.Value("prev_stream").Number().IsEqual(m.fromChannel)
			e.Value("stream").Number().IsEqual(m.toChannel)
		}),
		Entry("of a channel move: the mover's user_id and the time", harness.Req("MSG-40"), true, func(e *httpexpect.Object, _ moved) {
			e.Value("user_id").Number().IsEqual(member.ID)
			harness.ExpectTimestampNow(e.Value("timestamp"))
		}),
		Entry("of a channel move: no topic fields", harness.Req("MSG-43"), true, func(e *httpexpect.Object, _ moved) {
			e.NotContainsKey("prev_topic").NotContainsKey("topic")
		}),
		Entry("of a channel move: no content fields", harness.Req("MSG-41"), true, func(e *httpexpect.Object, _ moved) {
			e.NotContainsKey("prev_content").NotContainsKey("prev_rendered_content")
		}),
		Entry("of a topic change: prev_topic and topic, not prev_subject", harness.Req("MSG-43", "VER-09"), false, func(e *httpexpect.Object, m moved) {
			e.Value("prev_topic").String().IsEqual(m.fromTopic)
			e.Value("topic").String().IsEqual(m.toTopic)
			e.NotContainsKey("prev_subject")
		}),
		Entry("of a topic change: no channel fields", harness.Req("MSG-42"), false, func(e *httpexpect.Object, _ moved) {
			e.NotContainsKey("prev_stream").NotContainsKey("stream")
		}),
		Entry("of a topic change: no content fields", harness.Req("MSG-41"), false, func(e *httpexpect.Object, _ moved) {
			e.NotContainsKey("prev_content").NotContainsKey("prev_rendered_content")
		}),
	)

	// MSG-31 on the paths a move takes, not only content edits: present after a move alone, and
	// ordered most recent first across a content edit, a topic move and a channel move.
	It("gives edit_history after a move alone", harness.Req("MSG-31"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "moved, never edited")
		harness.Success(ops.EditMessage(member, id, "topic", harness.UniqueName("moved-only")))
		ops.MessageAs(member, id).Value("edit_history").Array().Length().IsEqual(1)
	})

	It("orders content edits and moves most recent first in edit_history", harness.Req("MSG-31"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "edited, then moved twice")
		harness.Success(ops.EditMessage(member, id, "content", "edited first"))
		harness.Success(ops.EditMessage(member, id, "topic", harness.UniqueName("moved-second")))
		other := t.NewChannel(harness.Public, t.User(harness.Member))
		harness.Success(ops.EditMessage(member, id, "stream_id", other.ID))
		history := ops.MessageAs(member, id).Value("edit_history").Array()
		history.Length().IsEqual(3)
		newest, middle, oldest := history.Value(0).Object(), history.Value(1).Object(), history.Value(2).Object()
		newest.Value("prev_stream").Number().IsEqual(ch.ID)
		newest.NotContainsKey("prev_content")
		middle.NotContainsKey("prev_stream").NotContainsKey("prev_content")
		oldest.Value("prev_content").String().IsEqual("edited, then moved twice")
		oldest.NotContainsKey("prev_stream")
		var times []float64
		harness.EachElement(history, "edit_history", func(e *httpexpect.Value) {
			times = append(times, e.Object().Value("timestamp").Number().Raw())
		})
		Expect(slices.IsSortedFunc(times, func(a, b float64) int { return cmp.Compare(b, a) })).To(BeTrue(), "timestamps most recent first: %v", times)
	})

	It("records prev_subject, not prev_topic, for a topic change below level 118", harness.Req("VER-31"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "renamed")
		harness.Success(ops.EditMessage(member, id, "topic", harness.UniqueName("renamed")))
		entry := ops.MessageAs(member, id).Value("edit_history").Array().Value(0).Object()
		entry.Value("prev_subject").String().IsEqual(topic)
		entry.NotContainsKey("prev_topic")
	})

	// Before last_moved_timestamp (level 365) a move set last_edit_timestamp: this is that
	// boundary (VER-17); MSG-33 on its own is checked at every level by the fetch specs.
	It("leaves last_edit_timestamp absent after a move: the content was never edited", harness.Req("MSG-33", "VER-17"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "moved, not edited")
		harness.Success(ops.EditMessage(member, id, "topic", harness.UniqueName("elsewhere")))
		ops.MessageAs(member, id).NotContainsKey("last_edit_timestamp")
	})

	It("sets last_moved_timestamp when a message is moved", harness.Req("MSG-36", "VER-17"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "moved")
		harness.Success(ops.EditMessage(member, id, "topic", harness.UniqueName("elsewhere")))
		harness.ExpectTimestampNow(ops.MessageAs(member, id).Value("last_moved_timestamp"))
	})

	It("stores a topic longer than max_topic_length no longer than the bound", harness.Req("LIMIT-02"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "long topic")
		long := harness.UniqueName("long") + strings.Repeat("t", t.Realm.MaxTopicLength)
		resp := ops.EditMessage(member, id, "topic", long)
		_, stored := ops.Where(member, id)
		if ops.Succeeded(resp) {
			Expect(utf8.RuneCountInString(stored)).To(BeNumerically("<=", t.Realm.MaxTopicLength))
		} else {
			harness.Fails(resp)
			Expect(stored).To(Equal(topic))
		}
	})

	Describe("the empty topic", func() {
		It("reads topic = realm_empty_topic_display_name as the empty topic", harness.Req("OP01-03", "VER-14"), func() {
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "to the empty topic")
			harness.Success(ops.EditMessage(member, id, "topic", t.Realm.EmptyTopicDisplayName))
			ops.ExpectTopicOf(member, "", id)
		})

		It("takes the empty string as the topic of a new message and as an edit's new topic", harness.Req("VER-14"), func() {
			sent := harness.Success(ops.SendMessage(member, "type", "stream", "to", ch.ID,
				"topic", "", "content", "sent to the empty topic"))
			ops.ExpectTopicOf(member, "", int(sent.Value("id").Number().IsInt().Raw()))
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "moved to the empty topic")
			harness.Success(ops.EditMessage(member, id, "topic", ""))
			ops.ExpectTopicOf(member, "", id)
		})

		It("shows the empty topic as realm_empty_topic_display_name in edit history unless allow_empty_topic_name is true",
			harness.Req("OP06-04"), func() {
				id := t.SendToEmptyTopic(t.User(harness.Member), ch)
				harness.Success(ops.EditMessage(member, id, "topic", topic))
				shown := ops.MessageAs(member, id).Value("edit_history").Array().Value(0).Object()
				shown.Value("prev_topic").String().IsEqual(t.Realm.EmptyTopicDisplayName)
				allowed := ops.MessageAs(member, id, "allow_empty_topic_name", true).Value("edit_history").Array().Value(0).Object()
				allowed.Value("prev_topic").String().IsEmpty()
			})

		It("cannot be resolved", harness.Req("OP01-05"), func() {
			id := t.SendToEmptyTopic(t.User(harness.Member), ch)
			harness.Fails(ops.EditMessage(member, id, "topic", "✔ ", "propagate_mode", "change_all"))
			ops.ExpectTopicOf(member, "", id)
		})

		It("cannot be the target when topics are required", Serial, harness.Req("OP01-04"), func() {
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "stays in its topic")
			ops.RequireTopics(t)
			for _, empty := range []string{"(no topic)", "", t.Realm.EmptyTopicDisplayName} {
				harness.Fails(ops.EditMessage(member, id, "topic", empty))
			}
			ops.ExpectTopicOf(member, topic, id)
		})
	})

	Describe("notifications", func() {
		It("posts nothing to the old thread unless send_notification_to_old_thread is true", harness.Req("OP01-11"), func() {
			quiet, loud := harness.UniqueName("quiet"), harness.UniqueName("loud")
			a := t.SendToChannel(t.User(harness.Member), ch, quiet, "moved quietly")
			b := t.SendToChannel(t.User(harness.Member), ch, loud, "moved with a notice")
			harness.Success(ops.EditMessage(member, a, "topic", harness.UniqueName("new"), "propagate_mode", "change_all"))
			harness.Success(ops.EditMessage(member, b, "topic", harness.UniqueName("new"), "propagate_mode", "change_all",
				"send_notification_to_old_thread", true))
			Expect(ops.TopicIDs(member, ch, quiet)).To(BeEmpty(), "the old thread of a move with the default")
			Expect(ops.TopicIDs(member, ch, loud)).NotTo(BeEmpty(), "the old thread of a move with send_notification_to_old_thread")
		})

		It("posts a notice to the new thread unless send_notification_to_new_thread is false", harness.Req("OP01-12"), func() {
			a := t.SendToChannel(t.User(harness.Member), ch, topic, "moved with a notice")
			b := t.SendToChannel(t.User(harness.Member), ch, topic, "moved quietly")
			noticed, quiet := harness.UniqueName("noticed"), harness.UniqueName("quiet")
			harness.Success(ops.EditMessage(member, a, "topic", noticed))
			harness.Success(ops.EditMessage(member, b, "topic", quiet, "send_notification_to_new_thread", false))
			Expect(ops.TopicIDs(member, ch, quiet)).To(Equal([]int{b}))
			Expect(len(ops.TopicIDs(member, ch, noticed))).To(BeNumerically(">", 1), "the new thread holds the moved message and a notice")
		})
	})

	// Resolving itself predates can_resolve_topics_group (level 367): this spec gates only on
	// last_moved_timestamp (level 365).
	It("leaves last_moved_timestamp absent when the only moves were resolving and unresolving",
		harness.Req("MSG-37"), func() {
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "resolved and unresolved")
			harness.Success(ops.EditMessage(member, id, "topic", "✔ "+topic, "propagate_mode", "change_all"))
			harness.Success(ops.EditMessage(member, id, "topic", topic, "propagate_mode", "change_all"))
			m := ops.MessageAs(member, id)
			m.NotContainsKey("last_moved_timestamp")
			m.Value("edit_history").Array().Length().IsEqual(2)
		})

	Describe("resolving topics", func() {
		It("resolves a topic with the ✔ prefix and change_all", harness.Req("STATE-01"), func() {
			ids := sendThree()
			harness.Success(ops.EditMessage(member, ids[2], "topic", "✔ "+topic, "propagate_mode", "change_all"))
			ops.ExpectTopicOf(member, "✔ "+topic, ids...)
		})

		It("unresolves a resolved topic with the original name", harness.Req("STATE-03"), func() {
			ids := sendThree()
			harness.Success(ops.EditMessage(member, ids[2], "topic", "✔ "+topic, "propagate_mode", "change_all"))
			harness.Success(ops.EditMessage(member, ids[2], "topic", topic, "propagate_mode", "change_all"))
			ops.ExpectTopicOf(member, topic, ids...)
		})

		It("only moves: send_notification_to_new_thread adds no notice to a resolved topic", harness.Req("STATE-02"), func() {
			withNotice, without := harness.UniqueName("a"), harness.UniqueName("b")
			a := t.SendToChannel(t.User(harness.Member), ch, withNotice, "resolve me")
			b := t.SendToChannel(t.User(harness.Member), ch, without, "resolve me too")
			harness.Success(ops.EditMessage(member, a, "topic", "✔ "+withNotice, "propagate_mode", "change_all",
				"send_notification_to_new_thread", true))
			harness.Success(ops.EditMessage(member, b, "topic", "✔ "+without, "propagate_mode", "change_all",
				"send_notification_to_new_thread", false))
			Expect(len(ops.TopicIDs(member, ch, "✔ "+withNotice))).To(Equal(len(ops.TopicIDs(member, ch, "✔ "+without))),
				"a resolved topic holds as many messages whether or not send_notification_to_new_thread was set")
		})

		It("is for members of can_resolve_topics_group only", Serial, harness.Req("VER-18"), func() {
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "resolve me")
			t.ChangeRealmGroupSetting("can_resolve_topics_group", t.SystemGroupID("role:administrators"))
			harness.Fails(ops.EditMessage(member, id, "topic", "✔ "+topic, "propagate_mode", "change_all"))
			ops.ExpectTopicOf(member, topic, id)
			harness.Success(ops.EditMessage(t.User(harness.Admin), id, "topic", "✔ "+topic, "propagate_mode", "change_all"))
			ops.ExpectTopicOf(member, "✔ "+topic, id)
		})
	})
})
