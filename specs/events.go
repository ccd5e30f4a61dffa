package specs

import (
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// presenceEventUsers is the realm size above which the real server of this family stops
// sending presence events.
const presenceEventUsers = 100

// presenceEventsAbout awaits a presence listener's event about the user who came online for
// up to ops.EventWait (the real server announces presence from a queue worker, possibly
// after a fence), then collects the queue up to a fence and returns what it holds. Where
// none about the user came, the spec fails, or is skipped in a realm larger than
// presenceEventUsers, where a server of this family sends none.
func presenceEventsAbout(t *harness.Target, events *harness.Listener, userID int) []map[string]any {
	GinkgoHelper()
	about := func(ev map[string]any) bool { return ev["user_id"] == float64(userID) }
	came := events.Await(ops.EventWait, about)
	if got := events.Collect(ops.EventWait); came || slices.ContainsFunc(got, about) {
		return got
	}
	if n := t.ActiveUsers(); n > presenceEventUsers {
		Skip(fmt.Sprintf("no presence event came, and the target's realm has %d active users: a server of this family sends no presence events above %d", n, presenceEventUsers))
	}
	Fail(fmt.Sprintf("no presence event about the user %d who came online arrived within %s", userID, ops.EventWait))
	return nil
}

// anEvent matches any event of a type, for waiting on events whose order the document leaves open.
func anEvent(eventType string) types.GomegaMatcher {
	return harness.Event(map[string]any{"type": eventType})
}

// The event specs run serially: a queue must see exactly the events a spec causes, and specs
// running beside them create channels and subscriptions that every user hears about.
var _ = Describe("Events: what clients learn through the event stream", Serial, func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	DescribeTable("updating is_muted or in_home_view sends two subscription update events, one per property",
		func(mutedBefore bool, property string, value, mutedAfter bool) {
			ch := t.NewChannel(harness.Public, t.User(harness.Member))
			member := t.User(harness.Member)
			if mutedBefore {
				harness.Success(ops.SetSubscription(member, ch.ID, "property", "is_muted", "value", true))
			}
			events := t.Listen(t.User(harness.Member), "subscription").AboutField("stream_id", ch.ID)
			harness.Success(ops.SetSubscription(member, ch.ID, "property", property, "value", value))

			want := []any{
				harness.Event(map[string]any{"type": "subscription", "op": "update", "stream_id": ch.ID, "property": "in_home_view", "value": !mutedAfter}),
				harness.Event(map[string]any{"type": "subscription", "op": "update", "stream_id": ch.ID, "property": "is_muted", "value": mutedAfter}),
			}
			expected := make([]types.GomegaMatcher, len(want))
			for i := range want {
				expected[i] = anEvent("subscription")
			}
			Expect(events.ExpectEvents(ops.EventWait, expected...)).To(ConsistOf(want...))
		},
		Entry("muting with is_muted=true", harness.Req("EVENT-01", "STATE-11"), false, "is_muted", true, true),
		Entry("muting with in_home_view=false", harness.Req("EVENT-01", "STATE-11"), false, "in_home_view", false, true),
		Entry("unmuting with is_muted=false", harness.Req("EVENT-01"), true, "is_muted", false, false),
		Entry("unmuting with in_home_view=true", harness.Req("EVENT-01"), true, "in_home_view", true, false),
	)

	Describe("a channel update carrying the new first_message_id when the channel's oldest message changes", func() {
		var (
			ch     harness.Channel
			oldest int
			topic  string
		)
		BeforeEach(func() {
			ch = t.NewChannel(harness.Public, t.User(harness.Member))
			topic = harness.UniqueName("oldest")
			oldest = t.SendToChannel(t.User(harness.Admin), ch, topic, "the oldest message")
		})
		firstMessageIDUpdate := func(value int) types.GomegaMatcher {
			return harness.Event(map[string]any{
				"type": "stream", "op": "update", "stream_id": ch.ID, "property": "first_message_id", "value": value,
			})
		}

		It("is sent when the oldest message is deleted", harness.Req("EVENT-02"), func() {
			next := t.SendToChannel(t.User(harness.Admin), ch, topic, "the next message")
			events := t.Listen(t.User(harness.Member), "stream").AboutField("stream_id", ch.ID)
			harness.Success(ops.DeleteMessage(t.User(harness.Admin), oldest))
			events.ExpectEvents(ops.EventWait, firstMessageIDUpdate(next))
		})

		It("is sent when deleting a topic removes the oldest message", harness.Req("EVENT-03", "EVENT-02"), func() {
			t.SendToChannel(t.User(harness.Admin), ch, topic, "also in the deleted topic")
			survivor := t.SendToChannel(t.User(harness.Admin), ch, harness.UniqueName("survivor"), "in another topic")
			events := t.Listen(t.User(harness.Member), "stream").AboutField("stream_id", ch.ID)
			ops.UntilComplete("delete topic", 2, func() *httpexpect.Response { return ops.DeleteTopic(t.User(harness.Admin), ch, "topic_name", topic) })
			events.ExpectEvents(ops.EventWait, firstMessageIDUpdate(survivor))
		})
	})

	// realmSettingEvents listens, as the member, to the realm events about setting.
	realmSettingEvents := func(setting string) *harness.Listener {
		return t.Listen(t.User(harness.Member), "realm").About(func(ev map[string]any) bool {
			data, _ := ev["data"].(map[string]any)
			_, inData := data[setting]
			return inData || ev["property"] == setting
		})
	}
	updateDict := func(setting string, value any) types.GomegaMatcher {
		return harness.Event(map[string]any{"type": "realm", "op": "update_dict", "data": map[string]any{setting: value}})
	}

	// The document and the real server (zerver/actions/realm_settings.py) both send
	// update_dict for allow_message_editing and message_content_edit_limit_seconds: no other
	// form passes. For the move time limits the real server (and the fake, like it) sends op
	// "update" with property and value where the document says update_dict: there either form
	// passes, and the report says which.
	DescribeTable("a realm update_dict event carries changes of the message editing and moving settings",
		func(setting string, value any, updateToo bool) {
			events := realmSettingEvents(setting)
			t.ChangeRealmSetting(setting, value)
			if !updateToo {
				events.ExpectEvents(ops.EventWait, updateDict(setting, value))
				return
			}
			update := harness.Event(map[string]any{"type": "realm", "op": "update", "property": setting, "value": value})
			got := events.ExpectEvents(ops.EventWait, Or(updateDict(setting, value), update))
			if len(got) == 1 {
				harness.Info("realm setting event form", "%s: op %q", setting, got[0]["op"])
			}
		},
		Entry("allow_message_editing", harness.Req("EVENT-04"), "allow_message_editing", false, false),
		Entry("message_content_edit_limit_seconds", harness.Req("EVENT-04"), "message_content_edit_limit_seconds", 4321, false),
		Entry("move_messages_within_stream_limit_seconds", harness.Req("EVENT-04"), "move_messages_within_stream_limit_seconds", 4322, true),
		Entry("move_messages_between_streams_limit_seconds", harness.Req("EVENT-04"), "move_messages_between_streams_limit_seconds", 4323, true),
	)

	// The group setting that governs resolving (from VER-18's level), with the group's ID as
	// its value: the event carries the value the state now holds, as update_dict (the real
	// server sends every group setting so).
	It("a realm update_dict event carries the change of can_resolve_topics_group", harness.Req("EVENT-04"), func() {
		ops.NeedLevelOf(t, "VER-18")
		const setting = "can_resolve_topics_group"
		moderators := t.SystemGroupID("role:moderators")
		events := realmSettingEvents(setting)
		t.ChangeRealmGroupSetting(setting, moderators)
		Expect(t.StateOf(t.User(harness.Member), "realm").Value("realm_" + setting).Raw()).To(BeNumerically("==", moderators))
		events.ExpectEvents(ops.EventWait, updateDict(setting, moderators))
	})

	// The real server of this family sends no presence events in a realm of more than
	// presenceEventUsers active users (clients poll presence there instead): when no event
	// comes in such a realm, the requirement is skipped with the reason. The event's fields are
	// not shown in the document, so the spec demands only that an event about the newcomer
	// arrives, which presenceEventsAbout awaits.
	It("tells clients at once when a user comes online", harness.Req("EVENT-05"), func() {
		// A new user: the real server announces a user who comes online, not one who was
		// active a moment ago, as a spare may have been.
		newcomer := t.NewUser(harness.Member)
		events := t.Listen(t.User(harness.Member), "presence").AboutField("user_id", newcomer.ID)
		harness.Success(ops.UpdatePresence(newcomer, "status", "active"))
		presenceEventsAbout(t, events, newcomer.ID)
	})

	It("tells the client with has_vcall_token whether the user holds a video-call token", harness.Req("EVENT-06"), func() {
		t.NeedCapability("vcall-token")
		user := t.Spare(harness.Member)
		t.SetVCallToken(user, false)                // a spare may hold one from an earlier spec
		events := t.Listen(user, "has_vcall_token") // the user's own events: nothing foreign
		t.SetVCallToken(user, true)
		events.ExpectEvents(ops.EventWait, harness.Event(map[string]any{"type": "has_vcall_token", "value": true}))
		t.SetVCallToken(user, false)
		events.ExpectEvents(ops.EventWait, harness.Event(map[string]any{"type": "has_vcall_token", "value": false}))
	})

	// Other events may reach the queue (the realm is shared); only the two private ones must not.
	It("never gives one user's queue another user's private events", harness.Req("EVENT-07"), func() {
		ch := t.NewChannel(harness.Public, t.User(harness.Admin))
		outsider := t.Spare(harness.Member)
		t.Subscribe(ch, outsider) // a channel both share; the administrator's settings of it are theirs
		types := []string{"message", "subscription", "typing", "typing_edit_message", "reaction", "update_message_flags", "update_message"}
		// Reminders events come with the reminders listing.
		reminders := ops.Reaches(t, "RES-30")
		if reminders {
			types = append(types, "reminders")
		}
		events := t.Listen(outsider, types...)

		secret := harness.UniqueName("secret")
		sender := t.User(harness.Moderator)
		dm := t.SendDirect(sender, []harness.User{t.User(harness.Admin)}, "for the administrator only: "+secret)
		harness.Success(ops.SetSubscription(t.User(harness.Admin), ch.ID, "property", "pin_to_top", "value", true))
		// What the two do in their conversation is theirs too: typing, editing, reacting.
		admin := t.User(harness.Admin)
		harness.Success(ops.SendForm(sender, "POST", "/typing", nil, "op", "start", "to", ops.JSONText([]int{admin.ID})))
		if ops.Reaches(t, "OP13-01") {
			harness.Success(ops.EditTyping(sender, dm, "op", "start"))
		}
		harness.Success(ops.React(admin, dm, "emoji_name", "octopus"))
		harness.Success(ops.EditMessage(sender, dm, "content", "edited, still for the administrator only: "+secret))
		// And the administrator's own flags: starring the message is no one else's business.
		harness.Success(ops.AddFlag(admin, "starred", dm))
		// So are the reminders the administrator sets on the message, and cancels.
		if reminders {
			reminder := harness.Success(createReminder(admin, dm, t.Now().Add(reminderLead), "")).Value("reminder_id").Number().Raw()
			harness.Success(t.As(admin).DELETE("/reminders/{id}", int(reminder)).Expect())
		}

		for _, ev := range events.Collect(ops.EventWait) {
			Expect(ops.JSONText(ev)).NotTo(ContainSubstring(secret), "the direct message between two others reached the queue")
			switch ev["type"] {
			case "subscription":
				Expect(ev).NotTo(And(HaveKeyWithValue("stream_id", BeNumerically("==", ch.ID)), HaveKeyWithValue("property", "pin_to_top")),
					"the administrator's subscription setting reached the queue")
			case "typing_edit_message", "reaction":
				Expect(ev).NotTo(HaveKeyWithValue("message_id", BeNumerically("==", dm)), "a %s event of the direct message between two others reached the queue", ev["type"])
			case "update_message_flags":
				Expect(ev["messages"]).NotTo(ContainElement(BeNumerically("==", dm)), "another user's flag change reached the queue")
			case "typing":
				Expect(ev["message_type"]).NotTo(Equal("direct"), "typing in a direct conversation between two others reached the queue")
			case "reminders":
				// The outsider sets none: every reminders event on the queue is another user's.
				Fail(fmt.Sprintf("another user's reminders event reached the queue: %s", ops.JSONText(ev)))
			}
		}
	})

	// A message moved into a private channel leaves the subscribers of its old channel who may
	// not read the new one: they may learn that it went (a deletion), not where to.
	It("tells a user a move takes a message away from nothing of its new place", harness.Req("EVENT-07"), func() {
		admin := t.User(harness.Admin)
		from := t.NewChannel(harness.Public, admin)
		to := t.NewChannel(harness.PrivateShared, admin)
		outsider := t.Spare(harness.Member)
		t.Subscribe(from, outsider)
		id := t.SendToChannel(admin, from, harness.UniqueName("in sight"), "about to move out of sight")
		events := t.Listen(outsider, "message", "update_message", "delete_message")
		hidden := harness.UniqueName("out of sight")
		harness.Success(ops.EditMessage(admin, id, "stream_id", to.ID, "topic", hidden))
		Expect(ops.MessageGone(outsider, id)).To(BeTrue(), "the outsider still reads the message moved into a private channel")
		for _, ev := range events.Collect(ops.EventWait) {
			Expect(ops.JSONText(ev)).NotTo(ContainSubstring(hidden), "the topic in the private channel reached a non-subscriber's queue")
			Expect(ev).NotTo(HaveKeyWithValue("new_stream_id", BeNumerically("==", to.ID)), "the private channel the message moved to reached a non-subscriber's queue")
			Expect(ev).NotTo(HaveKeyWithValue("stream_id", BeNumerically("==", to.ID)), "an event of the private channel reached a non-subscriber's queue")
		}
	})
})
