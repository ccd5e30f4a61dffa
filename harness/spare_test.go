package harness

import (
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("spare accounts", Ordered, func() {
	var (
		fake     *testFake
		tgt      *Target
		deactive User // the spare a spec deactivated
		owner    User // the spare a spec made an owner
	)
	BeforeAll(func() { fake, tgt = connectToTestFake() })

	members := func() []User {
		var us []User
		for _, u := range tgt.Spares {
			if u.Role == Member {
				us = append(us, u)
			}
		}
		return us
	}

	It("are found or made by Connect, every role's under its stable names", func() {
		counts := map[Role]int{}
		for _, u := range tgt.Spares {
			counts[u.Role]++
			Expect(u.Email).To(Equal(tgt.castEmail(spareName(u.Role, counts[u.Role]))))
			Expect(fake.byEmail(u.Email)).NotTo(BeNil(), "%s is on the server", u.Email)
		}
		for _, c := range spareCounts {
			Expect(counts[c.role]).To(Equal(c.n), "spares of the %s", c.role)
		}
	})

	It("hands each its own spare until it ends, reset: active, its role and name, a new user's settings", func() {
		// What earlier specs or runs left: another role and name, deactivated.
		left := fake.byEmail(members()[0].Email)
		left.Role, left.Name, left.Deactivated = 200, "Renamed", true

		seen := map[string]bool{}
		for range members() {
			u := tgt.Spare(Member)
			Expect(seen).NotTo(HaveKey(u.Email), "a spare handed out twice in one spec")
			seen[u.Email] = true
			on := fake.byEmail(u.Email)
			Expect(on.ID).To(Equal(u.ID))
			Expect(on.Deactivated).To(BeFalse(), "%s is active", u.Email)
			Expect(on.Role).To(Equal(roleCodes[Member]), "%s is a member", u.Email)
			Expect(on.Name).To(Equal(u.FullName))
			Expect(on.Settings.Get("email_address_visibility")).To(Equal(strconv.Itoa(VisibleToEveryone)))
			Expect(on.Settings.Get("presence_enabled")).To(Equal("true"))
			Success(tgt.As(u).GET("/users/me").Expect())
		}
		Expect(seen).To(HaveLen(len(members())))
		_, free := tgt.pickSpare(Member)
		Expect(free).To(BeFalse(), "every member spare is held by this spec")

		deactive = tgt.Spare(Guest)
		tgt.DeactivateUser(deactive)
		Expect(fake.byEmail(deactive.Email).Deactivated).To(BeTrue())
	})

	It("takes them back when the spec ends, and reactivates a spare the spec deactivated", func() {
		Expect(fake.byEmail(deactive.Email).Deactivated).To(BeFalse())
		u, free := tgt.pickSpare(Member)
		Expect(free).To(BeTrue())
		spares.Lock()
		delete(spares.held, tgt.spareKey(u))
		spares.Unlock()
	})

	It("promotes a spare for NewOwner", func() {
		owner = tgt.NewOwner()
		Expect(fake.byEmail(owner.Email).Role).To(Equal(roleCodes[Owner]))
	})

	It("demotes it when that spec ends", func() {
		Expect(fake.byEmail(owner.Email).Role).To(Equal(roleCodes[Member]))
	})
})
