package specs

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// Attachments: files uploaded with POST /user_uploads and listed by GET /attachments, the
// real server's supporting operations. A message references a file by linking its URL.

// uploadContent is the content of the files the attachment specs upload.
const uploadContent = "chatconform attachment content\n"

// attachmentOf returns the attachment object with the file's path_id from u's GET
// /attachments, and whether it is listed.
func attachmentOf(u harness.User, f harness.UploadedFile) (map[string]any, bool) {
	GinkgoHelper()
	list := harness.Success(harness.Current().As(u).GET("/attachments").Expect()).Value("attachments").Array()
	for _, v := range list.Iter() {
		if a, _ := v.Raw().(map[string]any); a != nil && a["path_id"] == f.PathID {
			return a, true
		}
	}
	return nil, false
}

// attachmentID returns the ID GET /attachments lists for the file; the file must be listed.
func attachmentID(u harness.User, f harness.UploadedFile) int {
	GinkgoHelper()
	a, listed := attachmentOf(u, f)
	Expect(listed).To(BeTrue(), "GET /attachments does not list %s", f.PathID)
	id, isNumber := a["id"].(float64)
	Expect(isNumber).To(BeTrue(), "the attachment's id is not a number: %v", a["id"])
	return int(id)
}

// How long an attachment may take to go once its last reference is gone: the document says
// only "deleted automatically", so a server may do it in the background.
const (
	unreferencedDeadline = 10 * time.Second
	unreferencedPolling  = 200 * time.Millisecond
)

// expectListed asserts whether GET /attachments of u lists the file.
func expectListed(u harness.User, f harness.UploadedFile, listed bool) {
	GinkgoHelper()
	_, found := attachmentOf(u, f)
	Expect(found).To(Equal(listed), "GET /attachments listing %s", f.PathID)
}

// editContent replaces a message's content as u and returns the edit's detached_uploads.
func editContent(u harness.User, messageID int, content string) *httpexpect.Array {
	GinkgoHelper()
	return harness.Success(ops.EditMessage(u, messageID, "content", content)).Value("detached_uploads").Array()
}

var _ = Describe("Attachments: files that messages reference", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
	)
	BeforeEach(func() { t, member, ch, topic = ops.MemberChannel("files") })

	Describe("detached uploads of an edit (operation 1)", func() {
		DescribeTable("returns a file whose only reference the edit removed",
			func(check func(detached *httpexpect.Array, f harness.UploadedFile, attachment int)) {
				f := t.Upload(member, uploadContent)
				id := t.SendToChannel(member, ch, topic, "the file: "+f.Link())
				attachment := attachmentID(member, f)
				check(editContent(member, id, "the file is gone"), f, attachment)
			},
			Entry("as the one detached upload", harness.Req("STATE-23"), func(detached *httpexpect.Array, _ harness.UploadedFile, attachment int) {
				detached.Length().IsEqual(1)
				detached.Value(0).Object().Value("id").Number().IsEqual(attachment)
			}),
			Entry("with its id, name, path_id and size", harness.Req("RES-01"), func(detached *httpexpect.Array, f harness.UploadedFile, attachment int) {
				d := detached.Value(0).Object()
				d.Value("id").Number().IsInt().IsEqual(attachment)
				d.Value("name").String().IsEqual(f.Name)
				d.Value("size").Number().IsInt().IsEqual(len(uploadContent))
				d.Value("path_id").String().IsEqual(f.PathID)
			}),
		)

		It("serves the detached file at {server_url}/user_uploads/<path_id>", harness.Req("RES-02"), func() {
			f := t.Upload(member, uploadContent)
			id := t.SendToChannel(member, ch, topic, "the file: "+f.Link())
			pathID := editContent(member, id, "the file is gone").Value(0).Object().Value("path_id").String().Raw()
			served := t.FilesAs(member).GET("/user_uploads/" + pathID).Expect()
			served.Status(http.StatusOK)
			Expect(served.Body().Raw()).To(Equal(uploadContent), "the bytes served at the detached upload's path")
		})

		It("gives create_time in UNIX seconds", harness.Req("RES-03", "VER-25"), func() {
			f := t.Upload(member, uploadContent)
			id := t.SendToChannel(member, ch, topic, f.Link())
			d := editContent(member, id, "no file any more").Value(0).Object()
			harness.ExpectTimestampNow(d.Value("create_time"))
		})

		// The forms the document names as replaced, on servers below the boundary.
		It("gives create_time in UNIX milliseconds below level 443", harness.Req("VER-27"), func() {
			f := t.Upload(member, uploadContent)
			t.SendToChannel(member, ch, topic, f.Link())
			a, listed := attachmentOf(member, f)
			Expect(listed).To(BeTrue(), "GET /attachments lists the upload")
			Expect(a["create_time"]).To(BeNumerically("~", t.Now().UnixMilli(), (5*time.Minute).Milliseconds()),
				"create_time in milliseconds of the target's clock")
		})

		It("lists the referencing messages in messages, not message_ids, below level 472", harness.Req("VER-28"), func() {
			f := t.Upload(member, uploadContent)
			id := t.SendToChannel(member, ch, topic, f.Link())
			a, _ := attachmentOf(member, f)
			Expect(a).NotTo(HaveKey("message_ids"))
			Expect(a).To(HaveKeyWithValue("messages", ContainElement(HaveKeyWithValue("id", float64(id)))),
				"the message that links the file")
		})

		It("gives message_ids as an integer array, which counts other users' messages too", harness.Req("RES-04", "VER-26"), func() {
			f := t.Upload(member, uploadContent)
			mine := t.SendToChannel(member, ch, topic, "mine: "+f.Link())
			theirs := t.SendToChannel(t.User(harness.Admin), ch, topic, "theirs: "+f.Link())
			a, _ := attachmentOf(member, f)
			Expect(a).To(HaveKeyWithValue("message_ids", ConsistOf(float64(mine), float64(theirs))),
				"the attachment is referenced by both messages")

			harness.Success(ops.EditMessage(member, mine, "content", "not mine any more"))
			harness.Success(ops.EditMessage(t.User(harness.Admin), theirs, "content", "not theirs either"))
			a, _ = attachmentOf(member, f)
			Expect(a).To(HaveKeyWithValue("message_ids", BeEmpty()))

			again := t.SendToChannel(member, ch, topic, "again: "+f.Link())
			editContent(member, again, "and gone").Value(0).Object().Value("message_ids").Array().IsEmpty()
		})

		It("does not detach a file another user's message still references", harness.Req("STATE-23"), func() {
			f := t.Upload(member, uploadContent)
			mine := t.SendToChannel(member, ch, topic, "mine: "+f.Link())
			t.SendToChannel(t.User(harness.Admin), ch, topic, "theirs: "+f.Link())
			editContent(member, mine, "not mine any more").IsEmpty()
		})

		It("is an empty list when the edit removed no file", harness.Req("STATE-23"), func() {
			f := t.Upload(member, uploadContent)
			id := t.SendToChannel(member, ch, topic, "keeps the file: "+f.Link())
			editContent(member, id, "still keeps the file: "+f.Link()).IsEmpty()
			expectListed(member, f, true)
		})
	})

	Describe("an attachment referenced by messages", func() {
		DescribeTable("is deleted automatically when the last message referencing it is deleted",
			func(deleteAll func(f harness.UploadedFile, first, second int)) {
				f := t.Upload(member, uploadContent)
				first := t.SendToChannel(member, ch, topic, "first: "+f.Link())
				second := t.SendToChannel(member, ch, topic, "second: "+f.Link())
				expectListed(member, f, true)
				deleteAll(f, first, second)
				Eventually(func() bool { _, listed := attachmentOf(member, f); return listed }).
					WithTimeout(unreferencedDeadline).WithPolling(unreferencedPolling).
					Should(BeFalse(), "GET /attachments still lists %s after its last reference was deleted", f.PathID)
			},
			Entry("directly, one message at a time", harness.Req("STATE-16"), func(f harness.UploadedFile, first, second int) {
				harness.Success(ops.DeleteMessage(t.User(harness.Admin), first))
				expectListed(member, f, true)
				harness.Success(ops.DeleteMessage(t.User(harness.Admin), second))
			}),
			Entry("by deleting their topic", harness.Req("STATE-16"), func(harness.UploadedFile, int, int) {
				ops.UntilComplete("delete topic", 2, func() *httpexpect.Response { return ops.DeleteTopic(t.User(harness.Admin), ch, "topic_name", topic) })
			}),
		)

	})
})

var _ = Describe("Operation 18: delete an attachment (DELETE /attachments/{attachment_id})", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	// Two of the user's files: the one named goes, the other stays.
	It("deletes the attachment: GET /attachments no longer lists it, and still lists the others", harness.Req("OP18-03", "STATE-18"), func() {
		member := t.User(harness.Member)
		kept := t.Upload(member, uploadContent)
		f := t.Upload(member, uploadContent)
		harness.Success(t.As(member).DELETE("/attachments/{id}", attachmentID(member, f)).Expect())
		expectListed(member, f, false)
		expectListed(member, kept, true)
	})

	It("deletes an attachment that messages still reference", harness.Req("OP18-01", "STATE-18"), func() {
		member := t.User(harness.Member)
		ch := t.NewChannel(harness.Public, t.User(harness.Member))
		f := t.Upload(member, uploadContent)
		t.SendToChannel(member, ch, harness.UniqueName("files"), f.Link())
		harness.BareSuccess(t.As(member).DELETE("/attachments/{id}", attachmentID(member, f)).Expect())
		expectListed(member, f, false)
		// The file itself goes with it: its URL serves it no more, to its owner either.
		served := t.FilesAs(member).GET("/user_uploads/" + f.PathID).Expect()
		Expect(served.Raw().StatusCode).NotTo(Equal(http.StatusOK), "the deleted attachment's file is still served")
		Expect(served.Body().Raw()).NotTo(Equal(uploadContent), "the deleted attachment's bytes are still served")
	})

	DescribeTable("answers BAD_REQUEST for an invalid attachment ID",
		func(id func() int) {
			harness.FailsWith(t.As(t.User(harness.Member)).DELETE("/attachments/{id}", id()).Expect(), "BAD_REQUEST")
		},
		Entry("an ID no attachment has", harness.Req("OP18-02", "ERR-04"), func() int { return harness.UnusedID }),
		Entry("an attachment deleted already", harness.Req("OP18-02", "ERR-04"), func() int {
			member := t.User(harness.Member)
			id := attachmentID(member, t.Upload(member, uploadContent))
			harness.Success(t.As(member).DELETE("/attachments/{id}", id).Expect())
			return id
		}),
	)

	It("answers BAD_REQUEST for another user's attachment, which stays", harness.Req("OP18-02", "ERR-04"), func() {
		other := t.User(harness.Admin)
		f := t.Upload(other, uploadContent)
		harness.FailsWith(t.As(t.User(harness.Member)).DELETE("/attachments/{id}", attachmentID(other, f)).Expect(), "BAD_REQUEST")
		expectListed(other, f, true)
	})
})

// Unused uploads expire on the fake's clock; the lifetime is shortened for the spec through
// the fake's configuration, so the spec does not depend on what "a few weeks" is.
var _ = Describe("Attachments: an upload no message references", Serial, func() {
	It("is deleted automatically once its lifetime after upload has passed", harness.Req("STATE-17", "LIMIT-12"), func() {
		t := harness.Current()
		t.NeedCapability("clock", "config")
		const lifetime = time.Hour
		t.SetFakeConfig("unused_attachment_seconds", int(lifetime/time.Second))
		member := t.User(harness.Member)
		ch := t.NewChannel(harness.Public, t.User(harness.Member))
		unused := t.Upload(member, uploadContent)
		used := t.Upload(member, uploadContent)
		t.SendToChannel(member, ch, harness.UniqueName("files"), used.Link())

		t.PassTime(lifetime - time.Minute)
		expectListed(member, unused, true)
		t.PassTime(time.Minute)
		expectListed(member, unused, false)
		expectListed(member, used, true)
	})
})
