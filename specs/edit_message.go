package specs

import (
	"strings"
	"time"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 1: edit a message's content (PATCH /messages/{message_id})", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
	)
	BeforeEach(func() { t, member, ch, topic = ops.MemberChannel("edits") })

	It("replaces the content of the message named by the path, and no other", harness.Req("OP01-13", "STATE-21"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "before the edit")
		other := t.SendToChannel(t.User(harness.Member), ch, topic, "not edited")
		harness.Success(ops.EditMessage(member, id, "content", "after **the** edit"))
		Expect(ops.RawContent(member, id)).To(Equal("after **the** edit"))
		Expect(ops.HTMLElementTexts(ops.MessageAs(member, id).Value("content").String().Raw(), "strong")).To(ContainElement("the"))
		Expect(ops.RawContent(member, other)).To(Equal("not edited"), "another message of the topic")
	})

	// Both sides: an edit that removes a file's only reference answers it as an object, one
	// that detaches nothing answers an empty array, never no field.
	It("answers detached_uploads as an array of objects", harness.Req("OP01-26"), func() {
		f := t.Upload(member, "detached by the edit\n")
		id := t.SendToChannel(member, ch, topic, "the file: "+f.Link())
		detached := harness.Success(ops.EditMessage(member, id, "content", "the file is gone")).Value("detached_uploads").Array()
		harness.EachElement(detached, "detached_uploads", func(v *httpexpect.Value) { v.Object() })
		plain := t.SendToChannel(member, ch, topic, "before the edit")
		harness.Success(ops.EditMessage(member, plain, "content", "after the edit")).Value("detached_uploads").Array().IsEmpty()
	})

	// topic and stream_id are "only for channel messages": a direct message has neither, and
	// an edit that names one changes nothing.
	DescribeTable("refuses an edit of a direct message that names a channel message's parameter",
		func(param func() (string, any)) {
			id := t.SendDirect(t.User(harness.Member), []harness.User{t.User(harness.Owner)}, "a direct message")
			name, value := param()
			harness.Fails(ops.EditMessage(member, id, name, value))
			m := ops.MessageAs(member, id)
			m.Value("type").String().IsEqual("private")
			m.Value("subject").String().IsEmpty()
		},
		Entry("topic", harness.Req("OP01-27"), func() (string, any) { return "topic", harness.UniqueName("topic") }),
		Entry("stream_id", harness.Req("OP01-27"), func() (string, any) { return "stream_id", ch.ID }),
	)

	// twiceEdited is a message of the member's edited twice, as fetched after.
	twiceEdited := func() *httpexpect.Object {
		GinkgoHelper()
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "first *version*")
		harness.Success(ops.EditMessage(member, id, "content", "second version"))
		harness.Success(ops.EditMessage(member, id, "content", "third version"))
		return ops.MessageAs(member, id)
	}
	DescribeTable("after two content edits",
		func(check func(m *httpexpect.Object)) { check(twiceEdited()) },
		Entry("keeps each old content in the edit history", harness.Req("STATE-22"), func(m *httpexpect.Object) {
			var prev []string
			harness.EachElement(m.Value("edit_history").Array(), "edit_history", func(e *httpexpect.Value) {
				prev = append(prev, e.Object().Value("prev_content").String().Raw())
			})
			Expect(prev).To(ConsistOf("second version", "first *version*"))
		}),
		// The move paths of MSG-31 are with the move specs.
		Entry("orders the edit history most recent first", harness.Req("MSG-31"), func(m *httpexpect.Object) {
			history := m.Value("edit_history").Array()
			history.Length().IsEqual(2)
			history.Value(0).Object().Value("prev_content").String().IsEqual("second version")
			Expect(history.Value(0).Object().Value("timestamp").Number().Raw()).To(BeNumerically(">=", history.Value(1).Object().Value("timestamp").Number().Raw()))
		}),
		Entry("sets last_edit_timestamp to the time of the edit", harness.Req("MSG-34"), func(m *httpexpect.Object) {
			harness.ExpectTimestampNow(m.Value("last_edit_timestamp"))
		}),
		// Content edits move nothing: a server that counts them as moves is wrong from 365.
		Entry("leaves last_moved_timestamp absent: the message was never moved", harness.Req("MSG-35"), func(m *httpexpect.Object) {
			m.NotContainsKey("last_moved_timestamp")
		}),
		Entry("gives each entry the editor's user_id and the edit's timestamp", harness.Req("MSG-40"), func(m *httpexpect.Object) {
			harness.EachElement(m.Value("edit_history").Array(), "edit_history", func(e *httpexpect.Value) {
				e.Object().Value("user_id").Number().IsInt().IsEqual(member.ID)
				harness.ExpectTimestampNow(e.Object().Value("timestamp"))
			})
		}),
		Entry("gives a content edit's entry prev_content and its HTML, and no move fields", harness.Req("MSG-41"), func(m *httpexpect.Object) {
			oldest := m.Value("edit_history").Array().Value(1).Object()
			oldest.Value("prev_content").String().IsEqual("first *version*")
			Expect(ops.HTMLElementTexts(oldest.Value("prev_rendered_content").String().Raw(), "em")).To(ContainElement("version"))
			harness.EachElement(m.Value("edit_history").Array(), "edit_history", func(e *httpexpect.Value) {
				for _, key := range []string{"prev_topic", "topic", "prev_stream", "stream", "prev_subject"} {
					e.Object().NotContainsKey(key)
				}
			})
		}),
	)

	// The HTML of prev_content is the HTML the message showed while that was its content, read
	// parsed: the same elements, attributes and text, whatever character references either uses.
	It("gives each content edit's entry the HTML the message had before it as prev_rendered_content", harness.Req("MSG-41"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "first *version* & 'quoted' <text>")
		first := ops.MessageAs(member, id).Value("content").String().Raw()
		harness.Success(ops.EditMessage(member, id, "content", "second **version**"))
		second := ops.MessageAs(member, id).Value("content").String().Raw()
		harness.Success(ops.EditMessage(member, id, "content", "third version"))
		history := ops.MessageAs(member, id).Value("edit_history").Array()
		Expect(history.Value(0).Object().Value("prev_rendered_content").String().Raw()).To(ops.EqualHTML(second), "the newest entry")
		Expect(history.Value(1).Object().Value("prev_rendered_content").String().Raw()).To(ops.EqualHTML(first), "the oldest entry")
	})

	// editBeyondLimit edits message id to content longer than max_message_length: refused, the
	// content reads back as before; accepted, no more than the bound is stored.
	editBeyondLimit := func(id int, content, before string) {
		GinkgoHelper()
		resp := ops.EditMessage(member, id, "content", content)
		stored := ops.RawContent(member, id)
		if ops.Succeeded(resp) {
			harness.Success(resp)
			Expect(utf8.RuneCountInString(stored)).To(BeNumerically("<=", t.Realm.MaxMessageLength))
		} else {
			harness.Fails(resp)
			Expect(stored).To(Equal(before))
		}
	}

	It("does not store content beyond max_message_length", harness.Req("OP01-14", "LIMIT-04"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "short")
		editBeyondLimit(id, strings.Repeat("x", t.Realm.MaxMessageLength+50), "short")
	})

	// The exact boundary, both sides: the bound register announces is the one edits apply.
	It("stores content of exactly max_message_length characters whole, and not one character more", harness.Req("OP01-14", "LIMIT-04"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "short")
		atLimit := strings.Repeat("y", t.Realm.MaxMessageLength)
		harness.Success(ops.EditMessage(member, id, "content", atLimit))
		Expect(ops.RawContent(member, id)).To(Equal(atLimit))
		editBeyondLimit(id, atLimit+"z", atLimit)
	})

	// Characters, not bytes: each of these is two bytes in UTF-8.
	It("stores multi-byte content of exactly max_message_length characters whole", harness.Req("OP01-14", "LIMIT-04"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "short")
		atLimit := strings.Repeat("é", t.Realm.MaxMessageLength)
		harness.Success(ops.EditMessage(member, id, "content", atLimit))
		Expect(ops.RawContent(member, id)).To(Equal(atLimit))
	})

	Describe("prev_content_sha256", func() {
		It("refuses the edit when it does not match the stored content", harness.Req("OP01-15", "VER-16"), func() {
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "original")
			harness.Fails(ops.EditMessage(member, id, "content", "conflicting edit", "prev_content_sha256", ops.SHA256Hex("something else")))
			Expect(ops.RawContent(member, id)).To(Equal("original"))
		})

		It("lets the edit through when it matches the stored content", harness.Req("OP01-16", "VER-16"), func() {
			id := t.SendToChannel(t.User(harness.Member), ch, topic, "original")
			harness.Success(ops.EditMessage(member, id, "content", "checked edit", "prev_content_sha256", ops.SHA256Hex("original")))
			Expect(ops.RawContent(member, id)).To(Equal("checked edit"))
		})
	})

	It("refuses content and stream_id together (rule 1)", harness.Req("OP01-18"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "original")
		other := t.NewChannel(harness.Public, t.User(harness.Member))
		harness.Fails(ops.EditMessage(member, id, "content", "new", "stream_id", other.ID))
		Expect(ops.RawContent(member, id)).To(Equal("original"))
		channelID, _ := ops.Where(member, id)
		Expect(channelID).To(Equal(ch.ID))
	})

	// Only the sender may edit a message's content: no role, not even the owner's, may edit
	// another user's.
	DescribeTable("answers BAD_REQUEST to a requester without permission to edit (rule 2) and changes nothing",
		func(sender, editor harness.Role) {
			t.Subscribe(ch, t.User(sender), t.User(editor))
			id := t.SendToChannel(t.User(sender), ch, topic, "the sender's words")
			harness.FailsWith(ops.EditMessage(t.User(editor), id, "content", "the editor's words"), "BAD_REQUEST")
			Expect(ops.RawContent(member, id)).To(Equal("the sender's words"))
		},
		Entry("a member editing the owner's message", harness.Req("OP01-19", "ERR-04"), harness.Owner, harness.Member),
		Entry("the owner editing a member's message", harness.Req("OP01-19", "ERR-04"), harness.Member, harness.Owner),
		Entry("an administrator editing a member's message", harness.Req("OP01-19", "ERR-04"), harness.Member, harness.Admin),
		Entry("a moderator editing a member's message", harness.Req("OP01-19", "ERR-04"), harness.Member, harness.Moderator),
	)

	It("accepts only change_one as propagate_mode of a content-only edit", harness.Req("OP01-10"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "original")
		for _, mode := range []string{"change_later", "change_all"} {
			harness.Fails(ops.EditMessage(member, id, "content", "new", "propagate_mode", mode))
		}
		Expect(ops.RawContent(member, id)).To(Equal("original"))
		harness.Success(ops.EditMessage(member, id, "content", "new", "propagate_mode", "change_one"))
	})

	It("refuses a propagate_mode other than change_one, change_later and change_all", harness.Req("OP01-09"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "original")
		harness.Fails(ops.EditMessage(member, id, "topic", harness.UniqueName("t"), "propagate_mode", "change_some"))
		_, got := ops.Where(member, id)
		Expect(got).To(Equal(topic))
	})

	Describe("realm settings", Serial, func() {
		DescribeTable("refuses content edits while the realm does not allow message editing",
			func(refused func(r *httpexpect.Response, id int)) {
				id := t.SendToChannel(t.User(harness.Member), ch, topic, "original")
				t.ChangeRealmSetting("allow_message_editing", false)
				refused(ops.EditMessage(member, id, "content", "new"), id)
			},
			Entry("and changes nothing", harness.Req("STATE-21"), func(r *httpexpect.Response, id int) {
				harness.Fails(r)
				Expect(ops.RawContent(member, id)).To(Equal("original"))
			}),
			Entry("with BAD_REQUEST", harness.Req("ERR-04"), func(r *httpexpect.Response, _ int) { harness.FailsWith(r, "BAD_REQUEST") }),
		)

		// A content edit past the limit is one the requester lacks permission for: rule 2 of
		// the operation gives it BAD_REQUEST.
		DescribeTable("refuses content edits older than message_content_edit_limit_seconds",
			func(late func(r *httpexpect.Response, id int)) {
				t.NeedCapability("clock")
				t.ChangeRealmSetting("message_content_edit_limit_seconds", 100)
				fresh := t.SendToChannel(t.User(harness.Member), ch, topic, "fresh")
				harness.Success(ops.EditMessage(member, fresh, "content", "edited in time"))
				t.PassTime(10 * time.Minute)
				late(ops.EditMessage(member, fresh, "content", "edited too late"), fresh)
			},
			Entry("and keeps the content", harness.Req("LIMIT-05"), func(r *httpexpect.Response, id int) {
				harness.Fails(r)
				Expect(ops.RawContent(member, id)).To(Equal("edited in time"))
			}),
			Entry("with BAD_REQUEST", harness.Req("ERR-04"), func(r *httpexpect.Response, _ int) { harness.FailsWith(r, "BAD_REQUEST") }),
		)
	})
})
