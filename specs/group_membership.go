package specs

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 16: get user group membership status (GET /user_groups/{user_group_id}/members/{user_id})", func() {
	var (
		t                      *harness.Target
		direct, nested, nobody harness.User
		inner, middle, outer   int
	)
	// outer ⊃ middle ⊃ inner: direct is a direct member of inner, nested of middle. The groups
	// are the spec's own, so shared members of the persistent crowd serve as nested and nobody;
	// direct is a spare, as some specs deactivate it
	// (it is reactivated when next taken).
	BeforeEach(func() {
		t = harness.Current()
		crowd := t.Crowd(2)
		direct, nested, nobody = t.Spare(harness.Member), crowd[0], crowd[1]
		inner = t.NewGroup([]int{direct.ID})
		middle = t.NewGroup([]int{nested.ID}, inner)
		outer = t.NewGroup(nil)
		t.AddSubgroups(outer, middle)
	})

	It("reports a direct member with is_user_group_member true", harness.Req("OP16-03"), func() {
		harness.Success(ops.GroupMembership(inner, direct.ID)).Value("is_user_group_member").Boolean().IsTrue()
	})

	It("reports a direct member with direct_member_only true", harness.Req("OP16-02"), func() {
		Expect(ops.IsMember(inner, direct.ID, "direct_member_only", true)).To(BeTrue())
		Expect(ops.IsMember(middle, nested.ID, "direct_member_only", true)).To(BeTrue())
	})

	It("counts membership through nested subgroups by default", harness.Req("OP16-01"), func() {
		Expect(ops.IsMember(middle, direct.ID)).To(BeTrue(), "through one subgroup")
		Expect(ops.IsMember(outer, direct.ID)).To(BeTrue(), "through two levels of subgroups")
		Expect(ops.IsMember(outer, nested.ID)).To(BeTrue())
		Expect(ops.IsMember(outer, direct.ID, "direct_member_only", false)).To(BeTrue())
	})

	It("ignores membership through subgroups with direct_member_only true", harness.Req("OP16-02"), func() {
		Expect(ops.IsMember(middle, direct.ID, "direct_member_only", true)).To(BeFalse())
		Expect(ops.IsMember(outer, direct.ID, "direct_member_only", true)).To(BeFalse())
		Expect(ops.IsMember(outer, nested.ID, "direct_member_only", true)).To(BeFalse())
	})

	It("reports a user in no group of the tree as no member", harness.Req("OP16-03"), func() {
		for _, g := range []int{inner, middle, outer} {
			Expect(ops.IsMember(g, nobody.ID)).To(BeFalse())
		}
		Expect(ops.IsMember(inner, nested.ID)).To(BeFalse(), "membership does not flow up to subgroups")
	})

	DescribeTable("never reports a deactivated user as a member",
		func(group func() int, query ...any) {
			t.DeactivateUser(direct)
			resp := ops.GroupMembership(group(), direct.ID, query...)
			// The document does not say whether the answer is false or an error; either
			// way the user is not reported as a member.
			if ops.Succeeded(resp) {
				harness.Success(resp).Value("is_user_group_member").Boolean().IsFalse()
			} else {
				harness.Fails(resp)
			}
		},
		Entry("of the group they were a direct member of", harness.Req("OP16-04"), func() int { return inner }),
		Entry("with direct_member_only", harness.Req("OP16-04"), func() int { return inner }, "direct_member_only", true),
		Entry("of a group they were in through subgroups", harness.Req("OP16-04"), func() int { return outer }),
	)
})
