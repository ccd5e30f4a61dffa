package specs

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 13: set typing status for message editing (POST /messages/{message_id}/typing)", func() {
	var (
		t      *harness.Target
		member harness.User
		id     int
	)
	BeforeEach(func() {
		t = harness.Current()
		member = t.User(harness.Member)
		ch := t.NewChannel(harness.Public, t.User(harness.Member))
		id = t.SendToChannel(t.User(harness.Member), ch, harness.UniqueName("typing"), "being edited")
	})

	DescribeTable("accepts op start and stop with no extra fields",
		func(op string) { harness.BareSuccess(ops.EditTyping(member, id, "op", op)) },
		Entry("start", harness.Req("OP13-01", "OP13-02"), "start"),
		Entry("stop", harness.Req("OP13-01", "OP13-02"), "stop"),
	)

	DescribeTable("refuses a missing or unknown op",
		func(kv ...any) { harness.Fails(ops.EditTyping(member, id, kv...)) },
		Entry("missing", harness.Req("OP13-01")),
		Entry("unknown", harness.Req("OP13-01"), "op", "pause"),
	)

	// An invalid or invisible message is a generic failure: BAD_REQUEST (Errors).
	DescribeTable("refuses with BAD_REQUEST a message the requester cannot edit-type on",
		func(message func() int) {
			harness.FailsWith(ops.EditTyping(member, message(), "op", "start"), "BAD_REQUEST")
		},
		Entry("one that does not exist", harness.Req("OP13-03", "ERR-04"), func() int { return harness.UnusedID }),
		Entry("a direct message between two other users", harness.Req("OP13-03", "ERR-04"), func() int {
			return t.SendDirect(t.User(harness.Admin), []harness.User{t.User(harness.Moderator)}, "not for the member")
		}),
	)
})
