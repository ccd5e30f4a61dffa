package specs

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 19: mark all messages as read (POST /mark_all_as_read)", func() {
	var (
		t             *harness.Target
		reader, other harness.User
		ids           []int
	)
	// Five messages to the reader and another recipient, who never marks anything.
	BeforeEach(func() {
		t = harness.Current()
		reader, other = t.Spare(harness.Member), t.Crowd(1)[0]
		ids = nil
		for i := range 5 {
			ids = append(ids, t.SendDirect(t.User(harness.Admin), []harness.User{reader, other}, "unread "+ops.MsgIDText(i)))
		}
	})

	readBy := func(u harness.User, id int) bool {
		GinkgoHelper()
		return slices.Contains(ops.FlagsOf(u, id), "read")
	}
	read := func(id int) bool { return readBy(reader, id) }

	// The operation is deprecated but works at every level (STATE-12, VER-06); OP19-02 states
	// the same of the operation the document gives, with complete, from level 211.
	DescribeTable("marks every message of the requester as read, and no other user's",
		func() {
			for _, id := range ids {
				Expect(read(id)).To(BeFalse(), "message %d before", id)
			}
			markAllAsRead(reader, len(ids))
			for _, id := range ids {
				Expect(read(id)).To(BeTrue(), "message %d after", id)
				Expect(readBy(other, id)).To(BeFalse(), "message %d for the other recipient", id)
			}
		},
		Entry("at every level", harness.Req("STATE-12", "VER-06")),
		Entry("from level 211", harness.Req("OP19-02")),
	)

	// The document shows no event payload, so a server may announce the change its own way;
	// one that announces it with this family's update_message_flags event must say what the
	// flags read back say: read added, to every message it marked.
	It("announces what it did: update_message_flags events, if any, add read to the messages read back as read", harness.Req("STATE-12"), func() {
		events := t.Listen(reader, "update_message_flags")
		markAllAsRead(reader, len(ids))
		announced := map[int]bool{}
		for _, ev := range events.Collect(ops.EventWait) {
			list, _ := ev["messages"].([]any)
			var mine []int
			for _, v := range list {
				if id, ok := v.(float64); ok && slices.Contains(ids, int(id)) {
					mine = append(mine, int(id))
				}
			}
			if len(mine) == 0 {
				continue
			}
			Expect(ev).To(And(HaveKeyWithValue("flag", "read"), HaveKeyWithValue("op", "add")), "an update_message_flags event of mark all as read about messages %v", mine)
			for _, id := range mine {
				announced[id] = true
			}
		}
		for _, id := range ids {
			Expect(read(id)).To(BeTrue(), "message %d after", id)
			// None announced: the server announces it another way, or not at all.
			if len(announced) > 0 {
				Expect(announced).To(HaveKey(id), "message %d is read, and the events of mark all as read announce the others only", id)
			}
		}
	})

	// The server may stop early (complete = false) at any batch size: every answer has a
	// boolean complete, and repeating ends with true.
	It("answers complete, a boolean, true when it did all", harness.Req("OP19-01"), func() {
		markAllAsRead(reader, len(ids))
	})

	// One batch of two out of five: the first answer says complete = false.
	DescribeTable("works in batches", Serial,
		func(check func()) {
			t.LimitBatches(2, 1)
			check()
		},
		Entry("newest first", harness.Req("STATE-13"), func() {
			harness.Success(ops.MarkAllAsRead(reader))
			for i, id := range ids {
				Expect(read(id)).To(Equal(i >= 3), "message %d of 5 after one batch of two", i+1)
			}
		}),
		Entry("answering complete = false when it stopped early; repeating finishes", harness.Req("OP19-03", "STATE-13", "ERR-03"), func() {
			harness.Success(ops.MarkAllAsRead(reader)).Value("complete").Boolean().IsFalse()
			for range len(ids) {
				if harness.Success(ops.MarkAllAsRead(reader)).Value("complete").Boolean().Raw() {
					break
				}
			}
			for _, id := range ids {
				Expect(read(id)).To(BeTrue(), "message %d after repeating", id)
			}
		}),
	)

	It("answers result partially_completed with a code when it stopped early, below level 211", Serial, harness.Req("VER-29"), func() {
		t.LimitBatches(2, 1)
		ops.Partial(ops.MarkAllAsRead(reader))
		Expect(read(ids[len(ids)-1])).To(BeTrue(), "the newest message, in the batch done")
	})
})

// markAllAsRead marks all of u's messages as read (see untilComplete).
func markAllAsRead(u harness.User, messages int) {
	GinkgoHelper()
	ops.UntilComplete("mark all as read", messages, func() *httpexpect.Response {
		return ops.MarkAllAsRead(u)
	})
}
