package specs

import (
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// fetchMessage sends GET /messages/{id} as role, with query parameters as name, value pairs,
// for specs that look at the whole response (msgs.fetch returns the message of a success).
func fetchMessage(role harness.Role, id int, query ...any) *httpexpect.Response {
	return getAs(role, "/messages/{id}", id, query...)
}

var _ = Describe("Operation 6: fetch a single message (GET /messages/{message_id})", func() {
	const source = "Fetch **bold** check"
	var (
		t       *harness.Target
		member  harness.User
		channel harness.Channel
		topic   string
		id      int
	)

	BeforeEach(func() {
		t = harness.Current()
		member = t.Users[harness.Member]
		channel = t.NewChannel(harness.Public, harness.Member)
		topic = harness.UniqueName("topic")
		id = t.SendToChannel(harness.Owner, channel, topic, source)
	})

	It("returns the requested message in `message` and its Markdown in `raw_content`",
		harness.Req("OP06-06", "OP06-07", "OP06-08", "MSG-38", "MSG-39", "VER-11"), func() {
			body := harness.Success(fetchMessage(harness.Member, id))
			body.Value("message").Object().HasValue("id", id)
			body.Value("raw_content").String().IsEqual(source)
		})

	It("renders the content as HTML by default", harness.Req("OP06-01", "MSG-09", "MSG-10"), func() {
		html := msgs.fetch(member, id)
		html.Value("content_type").String().IsEqual("text/html")
		html.Value("content").String().Contains("<strong>bold</strong>")
	})

	It("returns the raw Markdown with apply_markdown=false", harness.Req("OP06-02", "MSG-09", "MSG-10"), func() {
		raw := msgs.fetch(member, id, "apply_markdown", false)
		raw.Value("content_type").String().IsEqual("text/x-markdown")
		raw.Value("content").String().IsEqual(source)
	})

	It("describes a channel message with the documented fields and types",
		harness.Req("MSG-01", "MSG-02", "MSG-03", "MSG-04", "MSG-11", "MSG-12", "MSG-13", "MSG-14",
			"MSG-16", "MSG-17", "MSG-19", "MSG-20", "MSG-22", "MSG-27", "MSG-29"), func() {
			other := t.SendToChannel(harness.Owner, channel, topic, "another message")
			Expect(other).NotTo(Equal(id), "two messages got the same id")

			m := msgs.fetch(member, id)
			m.Value("id").Number().IsInt().IsEqual(id)
			m.Value("type").String().IsEqual("stream")
			m.Value("stream_id").Number().IsEqual(channel.ID)
			m.Value("subject").String().IsEqual(topic)
			harness.ExpectTimestampNow(m.Value("timestamp"))
			owner := t.Users[harness.Owner]
			m.Value("sender_id").Number().IsEqual(owner.ID)
			m.Value("sender_full_name").String().IsEqual(owner.FullName)
			m.Value("sender_email").String().IsEqual(t.APIEmail(harness.Member, owner.ID))
			// A string; it may be empty, for the realm on the server's root domain.
			m.Value("sender_realm_str").String()
			harness.ExpectStringOrNull(m.Value("avatar_url"))
			m.Value("client").String()
			m.Value("display_recipient").String().IsEqual(channel.Name)
			m.Value("recipient_id").Number().IsInt()
			m.Value("is_me_message").Boolean().IsFalse()
			m.Value("flags").Array().Every(func(_ int, v *httpexpect.Value) { v.String() })
			m.Value("reactions").Array().Every(func(_ int, v *httpexpect.Value) { v.Object() })
			m.Value("submessages").Array().Every(func(_ int, v *httpexpect.Value) { v.Object() })
		})

	It("carries topic_links, an array of objects, and not the older subject_links", harness.Req("MSG-07", "VER-10"), func() {
		t.NeedLevel(118)
		m := msgs.fetch(member, id)
		m.Value("topic_links").Array().Every(func(_ int, v *httpexpect.Value) { v.Object() })
		m.NotContainsKey("subject_links")
	})

	It("omits edit_history and last_edit_timestamp for a message never edited or moved", harness.Req("MSG-30", "MSG-33"), func() {
		m := msgs.fetch(member, id)
		m.NotContainsKey("edit_history")
		m.NotContainsKey("last_edit_timestamp")
	})

	It("omits last_moved_timestamp for a message never moved", harness.Req("MSG-35"), func() {
		t.NeedLevel(365)
		msgs.fetch(member, id).NotContainsKey("last_moved_timestamp")
	})

	It("describes a direct message: type private, no stream_id, empty subject, recipients as objects",
		harness.Req("MSG-02", "MSG-03", "MSG-05", "MSG-18"), func() {
			dm := t.SendDirect(harness.Owner, []harness.Role{harness.Member}, "a direct message")
			m := msgs.fetch(member, dm)
			m.Value("type").String().IsEqual("private")
			m.NotContainsKey("stream_id")
			m.Value("subject").String().IsEmpty()
			recipients := m.Value("display_recipient").Array()
			recipients.Every(func(_ int, v *httpexpect.Value) {
				r := v.Object()
				r.Value("id").Number().IsInt()
				r.Value("email").String()
				r.Value("full_name").String()
				r.Value("is_mirror_dummy").Boolean()
			})
			ids := harness.IntsOf(recipients, "id")
			Expect(ids).To(ConsistOf(t.Users[harness.Owner].ID, t.Users[harness.Member].ID))
		})

	It("reports the empty topic as realm_empty_topic_display_name unless allow_empty_topic_name is true",
		harness.Req("OP06-03", "OP06-05", "MSG-06"), func() {
			t.NeedLevel(334)
			empty := t.SendToEmptyTopic(harness.Owner, channel)
			shown := msgs.fetch(member, empty)
			shown.Value("subject").String().IsEqual(t.Realm.EmptyTopicDisplayName)
			allowed := msgs.fetch(member, empty, "allow_empty_topic_name", true)
			allowed.Value("subject").String().IsEmpty()
		})

	It("answers BAD_REQUEST for a message that does not exist", harness.Req("OP06-09", "ERR-04"), func() {
		harness.FailsWith(fetchMessage(harness.Member, harness.UnusedID), "BAD_REQUEST")
	})

	DescribeTable("answers BAD_REQUEST for a message the requester cannot see", harness.Req("OP06-10", "ERR-04"),
		func(send func() int) {
			harness.FailsWith(fetchMessage(harness.Member, send()), "BAD_REQUEST")
		},
		Entry("a direct message between two other users", func() int {
			return t.SendDirect(harness.Owner, []harness.Role{harness.Admin}, "not for the member")
		}),
		Entry("a message in a private channel the requester is not subscribed to", func() int {
			private := t.NewChannel(harness.PrivateShared)
			return t.SendToChannel(harness.Owner, private, harness.UniqueName("topic"), "not for the member")
		}),
	)
})

var _ = Describe("Operation 6: what flags, mentions, reactions, widgets, linkifiers and editing add to a fetched message", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
	)
	BeforeEach(func() { t, member, ch, topic = memberChannel("fetched") })

	It("has read in flags exactly once the requester has read the message", harness.Req("MSG-23"), func() {
		id := t.SendToChannel(harness.Owner, ch, topic, "news for the member")
		Expect(msgs.flagsOf(member, id)).NotTo(ContainElement("read"), "a message just received")
		harness.Success(sendForm(member, "POST", "/messages/flags", nil, "messages", "["+msgIDText(id)+"]", "op", "add", "flag", "read"))
		Expect(msgs.flagsOf(member, id)).To(ContainElement("read"), "a message marked as read")
	})

	DescribeTable("sets the wildcard mention flags, and wildcard_mentioned as their OR",
		func(content string, participate bool, want []string) {
			t.NeedLevel(224) // the channel and topic flags replaced wildcard_mentioned there
			if participate {
				t.SendToChannel(harness.Member, ch, topic, "the member takes part in the topic")
			}
			id := t.SendToChannel(harness.Owner, ch, topic, content)
			flags := msgs.flagsOf(member, id)
			for _, flag := range []string{"stream_wildcard_mentioned", "topic_wildcard_mentioned", "wildcard_mentioned"} {
				if slices.Contains(want, flag) {
					Expect(flags).To(ContainElement(flag), "flags of %q", content)
				} else {
					Expect(flags).NotTo(ContainElement(flag), "flags of %q", content)
				}
			}
		},
		Entry("a channel wildcard mention", harness.Req("MSG-24", "MSG-26", "VER-12"),
			"@**all** please read", false, []string{"stream_wildcard_mentioned", "wildcard_mentioned"}),
		Entry("a topic wildcard mention to a participant", harness.Req("MSG-25", "MSG-26", "VER-12"),
			"@**topic** please read", true, []string{"topic_wildcard_mentioned", "wildcard_mentioned"}),
		Entry("no wildcard mention", harness.Req("MSG-24", "MSG-25", "MSG-26"),
			"nothing for everyone", true, []string{}),
	)

	It("marks a /me status message with is_me_message", harness.Req("MSG-21"), func() {
		me := t.SendToChannel(harness.Owner, ch, topic, "/me waves")
		plain := t.SendToChannel(harness.Owner, ch, topic, "waves")
		msgs.fetch(member, me).Value("is_me_message").Boolean().IsTrue()
		msgs.fetch(member, plain).Value("is_me_message").Boolean().IsFalse()
	})

	It("lists in topic_links the links linkifiers make of the topic", harness.Req("MSG-08"), func() {
		t.NeedLevel(118) // topic_links was subject_links before
		prefix := strings.ToUpper(strings.ReplaceAll(harness.UniqueName("tk"), "-", ""))
		t.AddLinkifier(prefix+`-(?P<id>[0-9]+)`, "https://tracker.example.test/issues/{id}")
		id := t.SendToChannel(harness.Owner, ch, "about "+prefix+"-4242", "linked")
		links := msgs.fetch(member, id).Value("topic_links").Array()
		links.NotEmpty()
		links.Every(func(_ int, v *httpexpect.Value) { v.Object() })
		Expect(msgs.fetch(member, t.SendToChannel(harness.Owner, ch, topic, "unlinked")).Value("topic_links").Array().Raw()).To(BeEmpty())
	})

	It("gives avatar_url as a string unless the requester can see the sender's real email and asked for gravatar computation",
		harness.Req("MSG-15"), func() {
			private := t.NewUser(harness.Member)
			t.SetEmailVisibility(private, harness.VisibleToAdmins)
			id := t.SendToChannelAs(private, ch, topic, "from a user whose email only administrators see")
			narrow := `[{"operator":"id","operand":` + msgIDText(id) + `}]`
			for _, gravatar := range []bool{false, true} {
				list := harness.Success(withQuery(t.As(harness.Member).GET("/messages"), "anchor", id, "num_before", 0,
					"num_after", 0, "narrow", narrow, "client_gravatar", gravatar).Expect()).Value("messages").Array()
				list.Length().IsEqual(1)
				list.Value(0).Object().Value("avatar_url").String()
			}
		})

	It("describes submessages with integer id, message_id and sender_id and string msg_type and content", harness.Req("MSG-47"), func() {
		// A to-do list widget: the real server attaches its widget data as a submessage. How
		// many submessages a widget gets, and their content, the document does not say.
		id := t.SendToChannel(harness.Member, ch, topic, "/todo")
		msgs.fetch(member, id).Value("submessages").Array().Every(func(_ int, v *httpexpect.Value) {
			sm := v.Object()
			sm.Value("id").Number().IsInt()
			sm.Value("message_id").Number().IsInt().IsEqual(id)
			sm.Value("sender_id").Number().IsInt()
			sm.Value("msg_type").String()
			sm.Value("content").String()
		})
	})

	It("omits edit_history when viewing edit history is not allowed in the organization", Serial, harness.Req("MSG-32"), func() {
		id := t.SendToChannel(harness.Member, ch, topic, "original")
		harness.Success(msgs.edit(member, id, "content", "edited"))
		msgs.fetch(member, id).ContainsKey("edit_history")
		msgs.hideEditHistory(t)
		msgs.fetch(member, id).NotContainsKey("edit_history")
	})
})
