package specs

import (
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 6: fetch a single message (GET /messages/{message_id})", func() {
	var (
		t      *harness.Target
		member harness.User
	)
	BeforeEach(func() {
		t = harness.Current()
		member = t.User(harness.Member)
	})

	// Characters that HTML escapes: subject is the topic itself, not its HTML (match_subject
	// of a narrow is the escaped one).
	It("gives the topic in subject as sent, not HTML-escaped", harness.Req("MSG-04"), func() {
		ch := t.NewChannel(harness.Public, member)
		topic := `a<b> & "c" 'd' ` + harness.UniqueName("markup") // UniqueName keeps [a-z0-9-] only
		id := t.SendToChannel(member, ch, topic, "topic with markup characters")
		ops.MessageAs(member, id).Value("subject").String().IsEqual(topic)
	})

	It("omits last_moved_timestamp for a message never moved", harness.Req("MSG-35"), func() {
		ops.MessageAs(member, ops.FieldsMessage.Get(t)).NotContainsKey("last_moved_timestamp")
	})

	// A direct message between the administrator and the member: one requirement an assertion.
	DescribeTable("describes a direct message",
		func(check func(m *httpexpect.Object)) {
			check(ops.MessageAs(member, t.SendDirect(t.User(harness.Admin), []harness.User{t.User(harness.Member)}, "a direct message")))
		},
		Entry("with type private", harness.Req("MSG-02"), func(m *httpexpect.Object) { m.Value("type").String().IsEqual("private") }),
		Entry("without stream_id", harness.Req("MSG-03"), func(m *httpexpect.Object) { m.NotContainsKey("stream_id") }),
		Entry("with an empty subject", harness.Req("MSG-05"), func(m *httpexpect.Object) { m.Value("subject").String().IsEmpty() }),
		Entry("with its recipients as objects in display_recipient", harness.Req("MSG-18"), func(m *httpexpect.Object) {
			recipients := m.Value("display_recipient").Array()
			harness.EachElement(recipients, "display_recipient", func(v *httpexpect.Value) {
				r := v.Object()
				r.Value("id").Number().IsInt()
				r.Value("email").String()
				r.Value("full_name").String()
				r.Value("is_mirror_dummy").Boolean()
			})
			Expect(harness.IntsOf(recipients, "id")).To(ConsistOf(t.User(harness.Admin).ID, t.User(harness.Member).ID))
		}),
	)

	DescribeTable("reports the empty topic",
		func(allow bool, want func() string) {
			empty := t.SendToEmptyTopic(t.User(harness.Admin), t.SharedChannel())
			query := []any{}
			if allow {
				query = append(query, "allow_empty_topic_name", true)
			}
			ops.MessageAs(member, empty, query...).Value("subject").String().IsEqual(want())
		},
		Entry("as realm_empty_topic_display_name by default", harness.Req("OP06-03", "MSG-06"), false,
			func() string { return harness.Current().Realm.EmptyTopicDisplayName }),
		Entry("as the empty string with allow_empty_topic_name=true", harness.Req("OP06-05"), true, func() string { return "" }),
	)

	It("answers BAD_REQUEST for a message that does not exist", harness.Req("OP06-09", "ERR-04"), func() {
		harness.FailsWith(ops.FetchMessage(t.User(harness.Member), harness.UnusedID), "BAD_REQUEST")
	})

	DescribeTable("answers BAD_REQUEST for a message the requester cannot see", harness.Req("OP06-10", "ERR-04"),
		func(send func() int) {
			harness.FailsWith(ops.FetchMessage(t.User(harness.Member), send()), "BAD_REQUEST")
		},
		Entry("a direct message between two other users", func() int {
			return t.SendDirect(t.User(harness.Admin), []harness.User{t.User(harness.Moderator)}, "not for the member")
		}),
		Entry("a message in a private channel the requester is not subscribed to", func() int {
			private := t.NewChannel(harness.PrivateShared, t.User(harness.Admin))
			return t.SendToChannel(t.User(harness.Admin), private, harness.UniqueName("topic"), "not for the member")
		}),
		// Subscribed now, but the history is protected: what came before stays hidden.
		Entry("a message sent to a protected-history channel before the requester subscribed", func() int {
			protected := t.NewChannel(harness.PrivateProtected, t.User(harness.Admin))
			id := t.SendToChannel(t.User(harness.Admin), protected, harness.UniqueName("topic"), "before the member came")
			t.Subscribe(protected, t.User(harness.Member))
			return id
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
	BeforeEach(func() { t, member, ch, topic = ops.MemberChannel("fetched") })

	It("has read in flags exactly once the requester has read the message", harness.Req("MSG-23"), func() {
		id := t.SendToChannel(t.User(harness.Admin), ch, topic, "news for the member")
		Expect(ops.FlagsOf(member, id)).NotTo(ContainElement("read"), "a message just received")
		harness.Success(ops.AddFlag(member, "read", id))
		Expect(ops.FlagsOf(member, id)).To(ContainElement("read"), "a message marked as read")
	})

	// One spec a message and a flag, each naming the flag's rule.
	wildcardFlags := []struct{ flag, req string }{
		{"stream_wildcard_mentioned", "MSG-24"}, {"topic_wildcard_mentioned", "MSG-25"}, {"wildcard_mentioned", "MSG-26"},
	}
	wildcardMessages := []struct {
		name, content string
		participate   bool
		flags         []string
	}{
		{"a channel wildcard mention", "@**all** please read", false, []string{"stream_wildcard_mentioned", "wildcard_mentioned"}},
		{"a topic wildcard mention to a participant", "@**topic** please read", true, []string{"topic_wildcard_mentioned", "wildcard_mentioned"}},
		{"no wildcard mention", "nothing for everyone", true, nil},
	}
	var wildcardEntries []TableEntry
	for _, m := range wildcardMessages {
		for _, f := range wildcardFlags {
			set := slices.Contains(m.flags, f.flag)
			says := "without"
			if set {
				says = "with"
			}
			wildcardEntries = append(wildcardEntries, Entry(fmt.Sprintf("%s: %s %s", m.name, says, f.flag), harness.Req(f.req),
				m.content, m.participate, f.flag, set))
		}
	}
	DescribeTable("sets the wildcard mention flags, and wildcard_mentioned as their OR",
		func(content string, participate bool, flag string, set bool) {
			if participate {
				t.SendToChannel(t.User(harness.Member), ch, topic, "the member takes part in the topic")
			}
			id := t.SendToChannel(t.User(harness.Admin), ch, topic, content)
			if set {
				Expect(ops.FlagsOf(member, id)).To(ContainElement(flag), "flags of %q", content)
			} else {
				Expect(ops.FlagsOf(member, id)).NotTo(ContainElement(flag), "flags of %q", content)
			}
		},
		wildcardEntries,
	)

	// Deprecated at level 224 and still set, so at every level.
	It("sets the deprecated wildcard_mentioned for a channel wildcard mention", harness.Req("VER-12"), func() {
		id := t.SendToChannel(t.User(harness.Admin), ch, topic, "@**all** please read")
		Expect(ops.FlagsOf(member, id)).To(ContainElement("wildcard_mentioned"))
	})

	It("marks a /me status message with is_me_message", harness.Req("MSG-21"), func() {
		me := t.SendToChannel(t.User(harness.Admin), ch, topic, "/me waves")
		plain := t.SendToChannel(t.User(harness.Admin), ch, topic, "waves")
		ops.MessageAs(member, me).Value("is_me_message").Boolean().IsTrue()
		ops.MessageAs(member, plain).Value("is_me_message").Boolean().IsFalse()
	})

	It("lists in topic_links the links linkifiers make of the topic", harness.Req("MSG-08"), func() {
		prefix := strings.ToUpper(strings.ReplaceAll(harness.UniqueName("tk"), "-", ""))
		t.AddLinkifier(prefix+`-(?P<id>[0-9]+)`, "https://tracker.example.test/issues/{id}")
		id := t.SendToChannel(t.User(harness.Admin), ch, "about "+prefix+"-4242", "linked")
		harness.EachElement(ops.MessageAs(member, id).Value("topic_links").Array(), "topic_links", func(v *httpexpect.Value) { v.Object() })
		Expect(ops.MessageAs(member, t.SendToChannel(t.User(harness.Admin), ch, topic, "unlinked")).Value("topic_links").Array().Raw()).To(BeEmpty())
	})

	// avatar_url may be null only when both hold: the requester sees the sender's real email
	// and asked for gravatar computation (client_gravatar). Each path where one of them fails
	// must give a string: the email hidden (with and without client_gravatar), and the email
	// visible without client_gravatar.
	DescribeTable("gives avatar_url as a string unless the requester can see the sender's real email and asked for gravatar computation",
		func(visibility int, gravatar bool) {
			sender := t.Spare(harness.Member)
			t.SetEmailVisibility(sender, visibility)
			id := t.SendToChannel(sender, ch, topic, "from a user whose email visibility is set")
			narrow := `[{"operator":"id","operand":"` + ops.MsgIDText(id) + `"}]` // a string: integers from 194
			list := harness.Success(ops.FetchMessages(member, "anchor", id, "num_before", 0,
				"num_after", 0, "narrow", narrow, "client_gravatar", gravatar)).Value("messages").Array()
			list.Length().IsEqual(1)
			list.Value(0).Object().Value("avatar_url").String()
		},
		Entry("the email hidden from the requester, without client_gravatar", harness.Req("MSG-15"), harness.VisibleToAdmins, false),
		Entry("the email hidden from the requester, with client_gravatar", harness.Req("MSG-15"), harness.VisibleToAdmins, true),
		Entry("the email visible to the requester, without client_gravatar", harness.Req("MSG-15"), harness.VisibleToEveryone, false),
	)

	// The same message object reaches the member's event queue, registered with the
	// registration's own client_gravatar (true by default on the real server): the sender's
	// email is hidden from the member there too, so the avatar is given.
	It("gives avatar_url as a string in message events too, to a receiver who cannot see the sender's real email",
		harness.Req("MSG-15"), func() {
			private := t.Spare(harness.Member)
			t.SetEmailVisibility(private, harness.VisibleToAdmins)
			content := "an event from a user whose email only administrators see " + harness.UniqueName("c")
			events := t.Listen(member, "message").About(func(ev map[string]any) bool {
				m, _ := ev["message"].(map[string]any)
				return m["sender_id"] == float64(private.ID)
			})
			t.SendToChannel(private, ch, topic, content)
			got := events.ExpectEvents(ops.EventWait, harness.Event(map[string]any{"type": "message"}))
			m, _ := got[0]["message"].(map[string]any)
			Expect(m).To(HaveKeyWithValue("avatar_url", BeAssignableToTypeOf("")), "the event's message: %v", m)
		})

	// A submessage the sender adds with the real server's POST /submessage: the content is a
	// JSON string, and a message without a widget accepts any.
	const submessageContent = `{"chatconform":"data"}`
	addSubmessage := func() int {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "a message with data attached")
		harness.Success(ops.SendForm(member, "POST", "/submessage", nil,
			"message_id", ops.MsgIDText(id), "msg_type", "widget", "content", submessageContent))
		return id
	}

	// Once the sender has attached the first submessage, any reader may add one (the real
	// server's rule): the second, by another user, names that user, a sender per submessage.
	It("describes submessages with integer id, message_id and sender_id and string msg_type and content", harness.Req("MSG-47"), func() {
		id := addSubmessage()
		owner := t.User(harness.Owner)
		const ownerContent = `{"chatconform":"the owner's"}`
		harness.Success(ops.SendForm(owner, "POST", "/submessage", nil,
			"message_id", ops.MsgIDText(id), "msg_type", "widget", "content", ownerContent))
		list := ops.MessageAs(member, id).Value("submessages").Array()
		list.Length().IsEqual(2)
		senders := map[string]int{submessageContent: member.ID, ownerContent: owner.ID}
		var ids []int
		harness.EachElement(list, "submessages", func(v *httpexpect.Value) {
			sm := v.Object()
			content := sm.Value("content").String().Raw()
			Expect(senders).To(HaveKey(content), "a submessage with content neither user sent")
			sm.Value("id").Number().IsInt()
			ids = append(ids, int(sm.Value("id").Number().Raw()))
			sm.Value("message_id").Number().IsInt().IsEqual(id)
			sm.Value("sender_id").Number().IsInt().IsEqual(senders[content])
			sm.Value("msg_type").String().IsEqual("widget")
			delete(senders, content)
		})
		Expect(ids[0]).NotTo(Equal(ids[1]), "two submessages with one id")
	})

	It("lists submessages as an array of objects", harness.Req("MSG-29"), func() {
		list := ops.MessageAs(member, addSubmessage()).Value("submessages").Array()
		list.Length().IsEqual(1)
		harness.EachElement(list, "submessages", func(v *httpexpect.Value) { v.Object() })
	})

	It("omits edit_history when viewing edit history is not allowed in the organization", Serial, harness.Req("MSG-32"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "original")
		harness.Success(ops.EditMessage(member, id, "content", "edited"))
		ops.MessageAs(member, id).ContainsKey("edit_history")
		ops.HideEditHistory(t)
		ops.MessageAs(member, id).NotContainsKey("edit_history")
	})
})

var _ = Describe("Operation 6: the Message object of a channel message", func() {
	var id int
	BeforeEach(func() {
		id = ops.FieldsMessage.Get(harness.Current())
	})

	// The message's sender, who reads it too (SharedMessage).
	sender := func() harness.User { return ops.FieldsMessage.Sender }
	reader := sender
	fetched := func(query ...any) *httpexpect.Object { return ops.MessageAs(reader(), id, query...) }

	DescribeTable("returns",
		func(check func(body *httpexpect.Object)) { check(harness.Success(ops.FetchMessage(reader(), id))) },
		Entry("the requested message in message", harness.Req("OP06-06", "OP06-07", "MSG-38"), func(body *httpexpect.Object) {
			body.Value("message").Object().HasValue("id", id)
		}),
		Entry("its Markdown in raw_content", harness.Req("OP06-08", "MSG-39", "VER-11"), func(body *httpexpect.Object) {
			body.Value("raw_content").String().IsEqual(ops.FieldsSource)
		}),
	)

	// Content is then the Markdown itself, but raw_content stays (deprecated, not removed).
	It("keeps raw_content with apply_markdown=false", harness.Req("VER-11", "MSG-39"), func() {
		harness.Success(ops.FetchMessage(reader(), id, "apply_markdown", false)).Value("raw_content").String().IsEqual(ops.FieldsSource)
	})

	DescribeTable("renders",
		func(query []any, check func(m *httpexpect.Object)) { check(fetched(query...)) },
		Entry("the content as HTML by default", harness.Req("OP06-01", "MSG-09"), nil, func(m *httpexpect.Object) {
			content := m.Value("content").String().Raw()
			Expect(ops.HTMLElementTexts(content, "strong")).To(ContainElement("bold"), "**bold** is a <strong> element: %s", content)
			Expect(ops.HTMLText(content)).NotTo(ContainSubstring("**"))
		}),
		Entry("content_type text/html by default", harness.Req("OP06-01", "MSG-10"), nil, func(m *httpexpect.Object) {
			m.Value("content_type").String().IsEqual("text/html")
		}),
		Entry("the raw Markdown with apply_markdown=false", harness.Req("OP06-02", "MSG-09"), []any{"apply_markdown", false},
			func(m *httpexpect.Object) { m.Value("content").String().IsEqual(ops.FieldsSource) }),
		Entry("content_type text/x-markdown with apply_markdown=false", harness.Req("OP06-02", "MSG-10"), []any{"apply_markdown", false},
			func(m *httpexpect.Object) { m.Value("content_type").String().IsEqual("text/x-markdown") }),
	)

	DescribeTable("has",
		func(check func(m *httpexpect.Object)) { check(fetched()) },
		Entry("id, an integer, distinct from another message's", harness.Req("MSG-01"), func(m *httpexpect.Object) {
			m.Value("id").Number().IsInt().IsEqual(id)
			Expect(ops.FieldsMessage.Other).NotTo(Equal(id), "two messages got the same id")
		}),
		Entry("type stream", harness.Req("MSG-02"), func(m *httpexpect.Object) { m.Value("type").String().IsEqual("stream") }),
		Entry("stream_id, the channel's id", harness.Req("MSG-03"), func(m *httpexpect.Object) {
			m.Value("stream_id").Number().IsInt().IsEqual(ops.FieldsMessage.Channel.ID)
		}),
		Entry("subject, the topic", harness.Req("MSG-04"), func(m *httpexpect.Object) {
			m.Value("subject").String().IsEqual(ops.FieldsMessage.Topic)
		}),
		Entry("sender_id, sender_email and sender_full_name of the sender", harness.Req("MSG-12"), func(m *httpexpect.Object) {
			m.Value("sender_id").Number().IsEqual(sender().ID)
			m.Value("sender_full_name").String().IsEqual(sender().FullName)
			m.Value("sender_email").String().IsEqual(harness.Current().APIEmail(reader(), sender().ID))
		}),
		// A string, the same for every sender of the realm (it may be empty, for the realm on
		// the server's root domain): a value per sender is no realm's identifier.
		Entry("sender_realm_str, the same string for another sender of the realm", harness.Req("MSG-13"), func(m *httpexpect.Object) {
			t := harness.Current()
			other := t.SendToChannel(t.User(harness.Member), ops.FieldsMessage.Channel, ops.FieldsMessage.Topic, "from another sender")
			ops.MessageAs(reader(), other).Value("sender_realm_str").String().IsEqual(m.Value("sender_realm_str").String().Raw())
		}),
		Entry("avatar_url, a string or null", harness.Req("MSG-14"), func(m *httpexpect.Object) { harness.ExpectStringOrNull(m.Value("avatar_url")) }),
		Entry("client, a string", harness.Req("MSG-16"), func(m *httpexpect.Object) { m.Value("client").String() }),
		Entry("display_recipient, the channel's name", harness.Req("MSG-17"), func(m *httpexpect.Object) {
			m.Value("display_recipient").String().IsEqual(ops.FieldsMessage.Channel.Name)
		}),
		// The ID of the set of recipients: one value for the messages of a channel, another
		// for a direct message conversation.
		Entry("recipient_id, the channel's: the same for another message there, another for a direct message", harness.Req("MSG-19"), func(m *httpexpect.Object) {
			t := harness.Current()
			channel := m.Value("recipient_id").Number().IsInt().Raw()
			ops.MessageAs(reader(), ops.FieldsMessage.Other).Value("recipient_id").Number().IsEqual(channel)
			direct := t.SendDirect(reader(), []harness.User{t.User(harness.Member)}, "a direct message")
			ops.MessageAs(reader(), direct).Value("recipient_id").Number().IsInt().NotEqual(channel)
		}),
		Entry("is_me_message, a boolean (false for a plain message)", harness.Req("MSG-20"), func(m *httpexpect.Object) {
			m.Value("is_me_message").Boolean().IsFalse()
		}),
		Entry("submessages, an array (empty: nothing was attached)", harness.Req("MSG-29"), func(m *httpexpect.Object) {
			m.Value("submessages").Array().IsEmpty()
		}),
		Entry("no edit_history, never edited or moved", harness.Req("MSG-30"), func(m *httpexpect.Object) { m.NotContainsKey("edit_history") }),
		Entry("no last_edit_timestamp, never edited", harness.Req("MSG-33"), func(m *httpexpect.Object) { m.NotContainsKey("last_edit_timestamp") }),
	)

	// The arrays checked element by element, each on a message of its own that has an element:
	// the reader's flag, the reader's reaction, a link a linkifier makes of the topic.
	starred := func() int {
		t := harness.Current()
		id := t.SendToChannel(reader(), t.SharedChannel(), ops.FieldsMessage.Topic, "starred")
		harness.Success(ops.AddFlag(reader(), "starred", id))
		return id
	}
	reacted := func() int {
		t := harness.Current()
		id := t.SendToChannel(reader(), t.SharedChannel(), ops.FieldsMessage.Topic, "reacted to")
		harness.Success(ops.React(reader(), id, "emoji_name", "octopus"))
		return id
	}
	linked := func() int {
		t := harness.Current()
		prefix := strings.ToUpper(strings.ReplaceAll(harness.UniqueName("tl"), "-", ""))
		t.AddLinkifier(prefix+`-(?P<id>[0-9]+)`, "https://tracker.example.test/issues/{id}")
		return t.SendToChannel(reader(), t.SharedChannel(), "about "+prefix+"-4242", "linked")
	}
	DescribeTable("has, where the message has one",
		func(send func() int, check func(m *httpexpect.Object)) { check(ops.MessageAs(reader(), send())) },
		Entry("flags, an array of strings", harness.Req("MSG-22"), starred, func(m *httpexpect.Object) {
			flags := m.Value("flags").Array()
			harness.EachElement(flags, "flags", func(v *httpexpect.Value) { v.String() })
			Expect(flags.Raw()).To(ContainElement("starred"), "the flag the reader set")
		}),
		Entry("reactions, an array of objects", harness.Req("MSG-27"), reacted, func(m *httpexpect.Object) {
			reactions := m.Value("reactions").Array()
			harness.EachElement(reactions, "reactions", func(v *httpexpect.Value) { v.Object() })
			reactions.Length().IsEqual(1)
		}),
		Entry("topic_links, an array of objects", harness.Req("MSG-07"), linked, func(m *httpexpect.Object) {
			harness.EachElement(m.Value("topic_links").Array(), "topic_links", func(v *httpexpect.Value) { v.Object() })
		}),
		// Both halves: the newer name present, the older absent.
		Entry("topic_links and no subject_links, the older name of topic_links", harness.Req("VER-10"), linked, func(m *httpexpect.Object) {
			harness.EachElement(m.Value("topic_links").Array(), "topic_links", func(v *httpexpect.Value) { v.Object() })
			m.NotContainsKey("subject_links")
		}),
		Entry("subject_links, the name of topic_links below level 118", harness.Req("VER-30"), linked, func(m *httpexpect.Object) {
			harness.EachElement(m.Value("subject_links").Array(), "subject_links", func(v *httpexpect.Value) { v.Object() })
			m.NotContainsKey("topic_links")
		}),
	)

	It("has timestamp, the UNIX second it was sent", harness.Req("MSG-11"), func() {
		// A message of its own: the shared one may be older than the timestamp slack allows.
		t := harness.Current()
		sent := t.SendToChannel(reader(), t.SharedChannel(), ops.FieldsMessage.Topic, "when")
		harness.ExpectTimestampNow(ops.MessageAs(reader(), sent).Value("timestamp"))
	})
})
