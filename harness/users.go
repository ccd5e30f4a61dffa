package harness

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// Values of a user's email_address_visibility setting, as the real server numbers them.
const (
	VisibleToEveryone   = 1
	VisibleToMembers    = 2
	VisibleToAdmins     = 3
	VisibleToNobody     = 4
	VisibleToModerators = 5
)

// SetEmailVisibility sets u's own email_address_visibility (PATCH /settings as u).
// Failure fails the spec.
func (t *Target) SetEmailVisibility(u User, visibility int) {
	ginkgo.GinkgoHelper()
	_, err := t.api("PATCH", "/settings", &u, url.Values{"email_address_visibility": {strconv.Itoa(visibility)}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: setting the email visibility of %s to %d", u.Email, visibility)
}

// DeactivateUser deactivates u (DELETE /users/{id}) as a staff administrator, or as the owner
// when u is an owner, whom only an owner may deactivate. A spare is reactivated when the spec
// ends, so that runs leave the spares active. Failure fails the spec.
func (t *Target) DeactivateUser(u User) {
	ginkgo.GinkgoHelper()
	admin := t.staffer()
	if u.Role == Owner {
		admin = t.User(Owner)
	}
	_, err := t.api("DELETE", "/users/"+strconv.Itoa(u.ID), &admin, nil)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: deactivating %s", u.Email)
	if t.isSpare(u) {
		ginkgo.DeferCleanup(func() {
			admin := t.staffer()
			_, err := t.api("POST", "/users/"+strconv.Itoa(u.ID)+"/reactivate", &admin, nil)
			g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: reactivating the spare %s", u.Email)
		})
	}
}

// NewOwner makes a spare member an organization owner without special permissions, for specs
// about what owners may do. Its owner role is taken away when the spec ends, so that owners do
// not pile up on a shared server. Failure fails the spec.
func (t *Target) NewOwner() User {
	ginkgo.GinkgoHelper()
	u := t.Spare(Member)
	owner := t.User(Owner)
	setRole := func(role Role) error {
		_, err := t.api("PATCH", "/users/"+strconv.Itoa(u.ID), &owner, url.Values{"role": {strconv.Itoa(roleCodes[role])}})
		return err
	}
	g.Expect(setRole(Owner)).To(gomega.Succeed(), "harness: making %s an owner", u.Email)
	u.Role = Owner
	ginkgo.DeferCleanup(func() {
		g.Expect(setRole(Member)).To(gomega.Succeed(), "harness: taking the owner role from %s", u.Email)
	})
	return u
}

// ActiveUsers counts the active accounts of the target's realm (GET /users as a staff
// administrator), bots included: the size the real server weighs when it decides whether to
// send presence events.
func (t *Target) ActiveUsers() int {
	ginkgo.GinkgoHelper()
	owner := t.staffer()
	obj, err := t.api("GET", "/users", &owner, nil)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: listing the realm's users")
	members, _ := obj["members"].([]any)
	n := 0
	for _, m := range members {
		if u, _ := m.(map[string]any); u["is_active"] == true {
			n++
		}
	}
	return n
}

// NewUser creates a fresh user of role r (a bot for Bot), for specs whose rule needs a user
// that never existed (a new user's first presence, first state) or that change what a spare
// is found by (its email); other specs that change a user take a Spare. The user is
// deactivated when the spec ends (DeactivateAtEnd), and stays on the server: every call is a
// user more that a run leaves behind (docs/footprint.md). Failure fails the spec.
func (t *Target) NewUser(r Role) User {
	ginkgo.GinkgoHelper()
	g.Expect(r.valid()).To(gomega.BeTrue(), "harness: NewUser(%q): unknown role", r)
	var (
		u   User
		err error
	)
	if r == Bot {
		// Owned by a staff administrator: the cast's bot is the owner's.
		u, err = t.createBot(t.staffer())
	} else {
		u, err = t.createHuman(r)
	}
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: creating a %s", r)
	t.DeactivateAtEnd(u)
	return u
}

// APIEmail returns the email address u sees for user id (user.email of
// GET /users/{id}): the real one or a dummy, depending on email visibility.
func (t *Target) APIEmail(u User, id int) string {
	ginkgo.GinkgoHelper()
	obj, err := t.api("GET", "/users/"+strconv.Itoa(id), &u, nil)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: reading user %d as %s", id, who(u))
	user, _ := obj["user"].(map[string]any)
	email, ok := user["email"].(string)
	g.Expect(ok).To(gomega.BeTrue(), "harness: GET /users/%d returned no user.email", id)
	return email
}

// User returns the cast member of role r, the account through which a spec acts as that
// role, failing the spec if there is none.
func (t *Target) User(r Role) User {
	ginkgo.GinkgoHelper()
	u, ok := t.Users[r]
	if !ok {
		ginkgo.Fail(fmt.Sprintf("harness: the target has no %s (known roles: %v)", r, Roles))
	}
	return u
}

// UsersOf returns the cast members of the given roles, in order: User for each.
func (t *Target) UsersOf(roles ...Role) []User {
	ginkgo.GinkgoHelper()
	users := make([]User, 0, len(roles))
	for _, r := range roles {
		users = append(users, t.User(r))
	}
	return users
}

// who names u in a failure message: its role and email.
func who(u User) string {
	if u.Role == "" {
		return u.Email
	}
	return fmt.Sprintf("the %s %s", u.Role, u.Email)
}

// userIDs maps users to their ids, without repeats.
func userIDs(users []User) []int {
	ids := []int{}
	seen := map[int]bool{}
	for _, u := range users {
		if !seen[u.ID] {
			seen[u.ID] = true
			ids = append(ids, u.ID)
		}
	}
	return ids
}
