package harness

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// Spare accounts (docs/footprint.md): a spec that changes a user's own state (settings,
// presence, role, name, activation) but whose rule does not need a user that never existed
// takes a spare instead of creating a user. Spares are persistent accounts like the cast,
// found by stable names (spare-<role>-<n>) and made once per realm, so a later run leaves no
// user behind. Each parallel process takes its own share of them in turn (so that no account
// sends more requests in a run than the real server's rate limit allows), and a spec holds
// the ones it took until it ends, so no two specs share one at a time. A spare is reset when
// taken: reactivated, given back its role and name, and the settings the specs rely on put
// back to a new user's (everyone sees the real email, presence enabled).

// spareCounts is how many spares of each role a realm has: for four parallel processes, three
// members each (a spec holds two at most; the third spreads the requests of process 1, which
// also runs the serial specs), and one administrator and one guest.
var spareCounts = []struct {
	role Role
	n    int
}{{Member, 12}, {Admin, 4}, {Guest, 4}}

// spareName names spare i (from 1) of role r.
func spareName(r Role, i int) string { return fmt.Sprintf("spare-%s-%d", r, i) }

// provisionSpares finds (or, the first time on a realm, creates) every spare and logs it in.
// Where the owner may not create them and the configuration gives accounts instead, the run
// goes on without: Spare then fails the specs that need one.
func (t *Target) provisionSpares() error {
	for _, c := range spareCounts {
		for i := 1; i <= c.n; i++ {
			u, err := t.loginSpare(t.castEmail(spareName(c.role, i)), c.role, 0)
			if err != nil {
				if len(t.Config.Users) > 0 {
					return nil
				}
				return fmt.Errorf("spare %s %d: %w", c.role, i, err)
			}
			t.Spares = append(t.Spares, u)
		}
	}
	return nil
}

// spares holds, in this process, the spares by target URL and email (spareKey) as last seen
// (a key learnt again, an id learnt), the ones the running spec holds, and how many each role
// has given out.
var spares = struct {
	sync.Mutex
	known map[string]User
	held  map[string]bool
	taken map[Role]int
}{known: map[string]User{}, held: map[string]bool{}, taken: map[Role]int{}}

// Spare returns a spare account of the human role r other than the owner, reset, that no
// other spec uses until the running spec ends. Failure fails the spec.
func (t *Target) Spare(r Role) User {
	ginkgo.GinkgoHelper()
	g.Expect(r.valid() && r != Owner && r != Bot).To(gomega.BeTrue(), "harness: Spare(%q): not a human role other than the owner", r)
	u, ok := t.pickSpare(r)
	g.Expect(ok).To(gomega.BeTrue(), "harness: no spare %s is free in this process (%d spares provisioned)", r, len(t.Spares))
	ginkgo.DeferCleanup(func() {
		spares.Lock()
		delete(spares.held, t.spareKey(u))
		spares.Unlock()
	})
	u, err := t.takeSpare(u)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: taking the spare %s %s", r, u.Email)
	return u
}

// pickSpare marks the next free spare of role r of this process's share as held: process p
// of n has the spares whose place among those of the role is p-1 modulo n (all of them when
// there are fewer spares than processes).
func (t *Target) pickSpare(r Role) (User, bool) {
	cfg, _ := ginkgo.GinkgoConfiguration()
	p, n := cfg.ParallelProcess, max(cfg.ParallelTotal, 1)
	var all, share []User
	for _, u := range t.Spares {
		if u.Role == r {
			all = append(all, u)
		}
	}
	for i, u := range all {
		if len(all) < n || i%n == p-1 {
			share = append(share, u)
		}
	}
	spares.Lock()
	defer spares.Unlock()
	for i := range share {
		u := share[(spares.taken[r]+i)%len(share)]
		if !spares.held[t.spareKey(u)] {
			spares.taken[r] += i + 1
			spares.held[t.spareKey(u)] = true
			if known, ok := spares.known[t.spareKey(u)]; ok {
				u = known
			}
			return u, true
		}
	}
	return User{}, false
}

// takeSpare resets the spare u, logging it in again where a spec deactivated it.
func (t *Target) takeSpare(u User) (User, error) {
	me, err := t.api(http.MethodGet, "/users/me", &u, nil)
	if err != nil {
		if !isStatus(err, http.StatusUnauthorized) {
			return u, err
		}
		if u, err = t.loginSpare(u.Email, u.Role, u.ID); err != nil {
			return u, err
		}
		if me, err = t.api(http.MethodGet, "/users/me", &u, nil); err != nil {
			return u, err
		}
	}
	var ok bool
	if u.ID, ok = me.int("user_id"); !ok {
		return u, errors.New("GET /users/me: no integer user_id")
	}
	spares.Lock()
	spares.known[t.spareKey(u)] = u
	spares.Unlock()
	return u, t.resetSpare(u, me)
}

// loginSpare logs the spare in with its derived password: reactivating it (as a staff
// administrator) when a spec left it deactivated, creating it when it does not exist yet. id
// is its user id where this process knows it, else 0.
func (t *Target) loginSpare(email string, r Role, id int) (User, error) {
	password := castPassword(t.Config.Owner, email)
	u := User{Role: r, Email: email, FullName: "Chatconform " + castName(t, email), ID: id, Provisioned: true}
	key, err := t.fetchAPIKey(email, password)
	var apiErr *APIError
	switch {
	case err == nil:
	case !errors.As(err, &apiErr) || apiErr.Status == 0:
		return User{}, err
	case apiErr.Code == "USER_DEACTIVATED":
		admin := t.staffer()
		if id == 0 {
			obj, lookupErr := t.api(http.MethodGet, "/users/"+url.PathEscape(email), &admin, nil)
			if lookupErr != nil {
				return User{}, lookupErr
			}
			found, ok := asMap(obj["user"])["user_id"].(float64)
			if !ok {
				return User{}, fmt.Errorf("GET /users/%s: no user.user_id", email)
			}
			id = int(found)
		}
		if _, err := t.api(http.MethodPost, "/users/"+strconv.Itoa(id)+"/reactivate", &admin, nil); err != nil {
			return User{}, err
		}
		if key, err = t.fetchAPIKey(email, password); err != nil {
			return User{}, err
		}
	default:
		// Not there yet: made once per realm, as the cast is.
		made, err := t.persistentHuman(castName(t, email), r)
		if err != nil {
			return User{}, err
		}
		key, u.ID = made.APIKey, made.ID
	}
	u.APIKey = key
	return u, nil
}

// castName is the cast name in a cast email (castEmail's inverse).
func castName(t *Target, email string) string {
	prefix, suffix := "chatconform-", "-"+castTag(t.Config.Owner)+"@"+emailDomain(t.Config.Owner.Email)
	return email[len(prefix) : len(email)-len(suffix)]
}

// resetSpare gives u (whose GET /users/me answer is me) back its role and name, as a staff
// administrator (as the owner when a spec left it an owner, whom only an owner may demote),
// and resets its own settings.
func (t *Target) resetSpare(u User, me object) error {
	change := url.Values{}
	role, _ := me.int("role")
	if role != roleCodes[u.Role] {
		change.Set("role", strconv.Itoa(roleCodes[u.Role]))
	}
	if name, _ := me.string("full_name"); name != u.FullName {
		change.Set("full_name", u.FullName)
	}
	if len(change) > 0 {
		admin := t.staffer()
		if role == roleCodes[Owner] {
			admin = t.Users[Owner]
		}
		if _, err := t.api(http.MethodPatch, "/users/"+strconv.Itoa(u.ID), &admin, change); err != nil {
			return err
		}
	}
	_, err := t.api(http.MethodPatch, "/settings", &u, url.Values{
		"email_address_visibility": {strconv.Itoa(VisibleToEveryone)},
		"presence_enabled":         {"true"},
	})
	return err
}

// spareKey names u in spares: the target's URL and u's email.
func (t *Target) spareKey(u User) string { return t.URL + " " + u.Email }

// isSpare reports whether u is a spare this process has given out.
func (t *Target) isSpare(u User) bool {
	spares.Lock()
	defer spares.Unlock()
	_, ok := spares.known[t.spareKey(u)]
	return ok
}

// isStatus reports whether err is an API error with the HTTP status.
func isStatus(err error, status int) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == status
}

// DeactivatedAccount returns a deactivated account whose own credentials a spec may send
// (to see them refused): a persistent account of this parallel process, found by its stable
// name like a spare, reactivated to log it in where a previous run left it deactivated, and
// deactivated again. Unlike a fresh user, it is the same account in every run. Failure fails
// the spec.
func (t *Target) DeactivatedAccount() User {
	ginkgo.GinkgoHelper()
	cfg, _ := ginkgo.GinkgoConfiguration()
	u, err := t.loginSpare(t.castEmail(fmt.Sprintf("deactivated-%d", cfg.ParallelProcess)), Member, 0)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: logging in the deactivated account")
	if u.ID == 0 {
		me, err := t.api(http.MethodGet, "/users/me", &u, nil)
		g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: GET /users/me of %s", u.Email)
		u.ID, _ = me.int("user_id")
	}
	t.DeactivateUser(u)
	return u
}
