package specs

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

var _ = Describe("Operation 19: mark all messages as read (POST /mark_all_as_read)", func() {
	var (
		t      *harness.Target
		reader harness.User
		ids    []int
	)
	BeforeEach(func() {
		t = harness.Current()
		reader = t.NewUser(harness.Member)
		ids = nil
		for i := range 5 {
			ids = append(ids, t.SendDirectTo(harness.Owner, []harness.User{reader}, "unread "+msgIDText(i)))
		}
	})

	read := func(id int) bool {
		GinkgoHelper()
		return slices.Contains(msgs.flagsOf(reader, id), "read")
	}

	// At every level: the operation is deprecated but works; complete came with level 211.
	It("marks every message of the requester as read", harness.Req("STATE-12", "VER-06"), func() {
		for _, id := range ids {
			Expect(read(id)).To(BeFalse(), "message %d before", id)
		}
		harness.Success(sendForm(reader, "POST", "/mark_all_as_read", nil))
		for _, id := range ids {
			Expect(read(id)).To(BeTrue(), "message %d after", id)
		}
	})

	It("answers complete, a boolean, true when it did all", harness.Req("OP19-01"), func() {
		t.NeedLevel(211)
		harness.Success(sendForm(reader, "POST", "/mark_all_as_read", nil)).Value("complete").Boolean().IsTrue()
	})

	It("has then marked every message of the requester as read", harness.Req("OP19-02"), func() {
		t.NeedLevel(211)
		for _, id := range ids {
			Expect(read(id)).To(BeFalse(), "message %d before", id)
		}
		harness.Success(sendForm(reader, "POST", "/mark_all_as_read", nil))
		for _, id := range ids {
			Expect(read(id)).To(BeTrue(), "message %d after", id)
		}
	})

	// One batch of two out of five: the first answer says complete = false.
	DescribeTable("works in batches", Serial,
		func(check func()) {
			t.NeedLevel(211)
			t.LimitBatches(2, 1)
			check()
		},
		Entry("newest first", harness.Req("STATE-13"), func() {
			harness.Success(sendForm(reader, "POST", "/mark_all_as_read", nil))
			for i, id := range ids {
				Expect(read(id)).To(Equal(i >= 3), "message %d of 5 after one batch of two", i+1)
			}
		}),
		Entry("answering complete = false when it stopped early; repeating finishes", harness.Req("OP19-03", "STATE-13", "ERR-03"), func() {
			harness.Success(sendForm(reader, "POST", "/mark_all_as_read", nil)).Value("complete").Boolean().IsFalse()
			for range len(ids) {
				if harness.Success(sendForm(reader, "POST", "/mark_all_as_read", nil)).Value("complete").Boolean().Raw() {
					break
				}
			}
			for _, id := range ids {
				Expect(read(id)).To(BeTrue(), "message %d after repeating", id)
			}
		}),
	)

	It("answers result partially_completed with a code when it stopped early, below level 211", Serial, harness.Req("VER-29"), func() {
		t.NeedLevelBelow(211)
		t.LimitBatches(2, 1)
		partial(sendForm(reader, "POST", "/mark_all_as_read", nil))
		Expect(read(ids[len(ids)-1])).To(BeTrue(), "the newest message, in the batch done")
	})
})

// partial checks the envelope that replaced complete = false at level 211: result
// partially_completed and a code string.
func partial(resp *httpexpect.Response) {
	GinkgoHelper()
	body := resp.JSON().Object()
	body.Value("result").String().IsEqual("partially_completed")
	body.Value("code").String().NotEmpty()
}
