package specs

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// An entry's timestamp is the time of its edit, not of the message, and its user_id the
// editor, not the sender: only a clock that moved between sending and editing, and an editor
// other than the sender, tell them apart. The specs move the clock, so they run alone.
var _ = Describe("Operation 1: the edit history records who edited and when (PATCH /messages/{message_id})", Serial, func() {
	const later = 10 * time.Minute // beyond the slack of a timestamp "now"
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
	)
	BeforeEach(func() {
		t, member, ch, topic = ops.MemberChannel("history")
		t.NeedCapability("clock")
	})

	// editLater sends a message of the member's, lets time pass and has editor change it with
	// params; it returns the message as the member fetches it after and when it was sent.
	editLater := func(editor harness.User, params ...any) (m *httpexpect.Object, sent int64) {
		GinkgoHelper()
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "sent before")
		sent = int64(ops.MessageAs(member, id).Value("timestamp").Number().Raw())
		t.PassTime(later)
		harness.Success(ops.EditMessage(editor, id, params...))
		return ops.MessageAs(member, id), sent
	}

	It("gives a content edit's entry the time of the edit", harness.Req("MSG-40"), func() {
		m, sent := editLater(member, "content", "edited later")
		entry := m.Value("edit_history").Array().Value(0).Object()
		harness.ExpectTimestampNow(entry.Value("timestamp"))
		Expect(int64(entry.Value("timestamp").Number().Raw())).To(BeNumerically(">=", sent+int64(later/time.Second)))
	})

	It("gives last_edit_timestamp the time of the content edit, not of the message", harness.Req("MSG-34"), func() {
		m, sent := editLater(member, "content", "edited later")
		harness.ExpectTimestampNow(m.Value("last_edit_timestamp"))
		Expect(int64(m.Value("last_edit_timestamp").Number().Raw())).To(BeNumerically(">=", sent+int64(later/time.Second)))
	})

	// Two edits: the latest one's time, whichever end of the history a server reads.
	It("gives last_edit_timestamp the time of the latest of two content edits", harness.Req("MSG-34"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "edited twice")
		harness.Success(ops.EditMessage(member, id, "content", "first edit"))
		first := int64(ops.MessageAs(member, id).Value("last_edit_timestamp").Number().Raw())
		t.PassTime(2 * time.Minute)
		harness.Success(ops.EditMessage(member, id, "content", "second edit"))
		last := int64(ops.MessageAs(member, id).Value("last_edit_timestamp").Number().Raw())
		Expect(last).To(BeNumerically(">=", first+120), "last_edit_timestamp is the first edit's, not the latest's")
	})

	It("gives a move's entry the mover's user_id, not the sender's, and the time of the move", harness.Req("MSG-40"), func() {
		t.Subscribe(ch, t.User(harness.Moderator))
		t.LetMembersMove()
		moderator := t.User(harness.Moderator)
		m, sent := editLater(moderator, "topic", harness.UniqueName("moved-by-moderator"))
		entry := m.Value("edit_history").Array().Value(0).Object()
		entry.Value("user_id").Number().IsEqual(moderator.ID)
		harness.ExpectTimestampNow(entry.Value("timestamp"))
		Expect(int64(entry.Value("timestamp").Number().Raw())).To(BeNumerically(">=", sent+int64(later/time.Second)))
	})
})
