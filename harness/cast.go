package harness

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// The persistent cast (docs/footprint.md): the users every run needs are found by
// stable names and reused, so that runs do not pile users up on a shared server. A run only
// creates what it cannot reuse: the bot (no API hands a bot's key back; it is deactivated
// when the run ends) and the fresh users of specs that change a user's own settings (each
// deactivated when its spec ends).

// castSlots is how many persistent accounts each non-owner role of the cast has. Specs take
// them in turn (NextCast), so that the requests the specs send as "the member" or "the
// administrator" spread over several accounts and none needs more than the real server's
// rate limit allows in a run. The specs act as members and administrators most (with 8 each,
// one administrator reached 203 requests in a run); the owner creates every one of them, so
// the roles used less keep fewer.
var castSlots = map[Role]int{Admin: 9, Member: 9, Moderator: 7, Guest: 7}

// staffSize is how many persistent administrators share the harness's own housekeeping
// (creating and archiving channels, changing roles, deactivating users), so that no account
// needs more requests per run than the real server's rate limit allows.
const staffSize = 10

// castTag tells this owner's persistent cast apart from another owner's on the same server:
// six hex digits of a hash of the owner's credentials. A new owner API key starts a new cast.
func castTag(owner Credentials) string {
	sum := sha256.Sum256([]byte(owner.Email + "\x00" + owner.APIKey))
	return hex.EncodeToString(sum[:3])
}

// castEmail is the stable address of the persistent cast member called name.
func (t *Target) castEmail(name string) string {
	return "chatconform-" + name + "-" + castTag(t.Config.Owner) + "@" + emailDomain(t.Config.Owner.Email)
}

// castPassword is the persistent cast member's password: derived from the owner's API key,
// so a later run can log in again without storing anything, and no one without the key can.
func castPassword(owner Credentials, email string) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"
	mac := hmac.New(sha256.New, []byte(owner.APIKey))
	mac.Write([]byte(strings.ToLower(email)))
	sum := mac.Sum(nil)
	b := make([]byte, 24)
	for i := range b {
		b[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(b)
}

// persistentHuman finds the cast member called name (logging in with its derived password)
// or creates it, and makes sure it has role r.
func (t *Target) persistentHuman(name string, r Role) (User, error) {
	email := t.castEmail(name)
	password := castPassword(t.Config.Owner, email)
	u := User{Role: r, Email: email, FullName: "Chatconform " + name}
	key, err := t.fetchAPIKey(email, password)
	if err != nil {
		var apiErr *APIError
		switch {
		case !errors.As(err, &apiErr) || apiErr.Status == 0:
			return User{}, err // no answer at all: nothing to learn from creating
		case apiErr.Code == "USER_DEACTIVATED":
			return User{}, fmt.Errorf("%w (the persistent %s %s was deactivated: reactivate it, or give users.%s in the config file)", err, r, email, r)
		}
		// Not there yet (or another process is creating it right now).
		owner := t.Users[Owner]
		_, createErr := t.api("POST", "/users", &owner, url.Values{
			"email": {email}, "password": {password}, "full_name": {u.FullName},
		})
		if createErr != nil && !strings.Contains(createErr.Error(), "already in use") {
			return User{}, fmt.Errorf("%w (the owner needs can_create_users, or give users.%s in the config file)", createErr, r)
		}
		if key, err = t.fetchAPIKey(email, password); err != nil {
			return User{}, fmt.Errorf("%w (the persistent %s %s exists but its password does not match: deactivate it, or give users.%s in the config file)", err, r, email, r)
		}
	}
	u.APIKey = key
	me, err := t.api("GET", "/users/me", &u, nil)
	if err != nil {
		return User{}, err
	}
	var ok bool
	if u.ID, ok = me.int("user_id"); !ok {
		return User{}, errors.New("GET /users/me: no integer user_id")
	}
	if role, _ := me.int("role"); role != roleCodes[r] {
		// A staff administrator where there is one already, so the owner's requests are left
		// to what only an owner may do.
		admin := t.staffer()
		if r == Owner || role == roleCodes[Owner] {
			admin = t.Users[Owner]
		}
		if _, err := t.api("PATCH", "/users/"+strconv.Itoa(u.ID), &admin, url.Values{"role": {strconv.Itoa(roleCodes[r])}}); err != nil {
			return User{}, err
		}
	}
	return u, nil
}

// castSlotName names slot i (from 0) of a role's persistent accounts: the role itself, then
// role-2, role-3, ….
func castSlotName(r Role, i int) string {
	if i == 0 {
		return string(r)
	}
	return fmt.Sprintf("%s-%d", r, i+1)
}

// castTurn counts the specs of this process, for NextCast.
var castTurn atomic.Uint64

// NextCast gives the next spec the next accounts of each pooled role (the suite calls it
// before every spec): each parallel process starts at another slot. A spec sees one cast
// member per role from its first node to its last cleanup.
func (t *Target) NextCast() {
	n := castTurn.Add(1) + uint64(ginkgo.GinkgoParallelProcess())
	for r, pool := range t.Pool {
		if len(pool) > 0 {
			t.Users[r] = pool[n%uint64(len(pool))]
		}
	}
}

// fetchAPIKey logs in with a password (POST /fetch_api_key).
func (t *Target) fetchAPIKey(email, password string) (string, error) {
	obj, err := t.api("POST", "/fetch_api_key", nil, url.Values{"username": {email}, "password": {password}})
	if err != nil {
		return "", err
	}
	key, ok := obj.string("api_key")
	if !ok || key == "" {
		return "", errors.New("POST /fetch_api_key: no api_key")
	}
	return key, nil
}

// provisionStaff finds or creates the persistent administrators of the housekeeping. Where the
// owner may not create them and the configuration gives accounts instead, the run goes on
// with the staff it found (none: the owner does the housekeeping alone).
func (t *Target) provisionStaff() error {
	for i := 1; i <= staffSize; i++ {
		u, err := t.persistentHuman(fmt.Sprintf("staff-%d", i), Admin)
		if err != nil {
			if len(t.Config.Users) > 0 {
				return nil
			}
			return fmt.Errorf("staff administrator %d: %w", i, err)
		}
		t.Staff = append(t.Staff, u)
	}
	return nil
}

// provisionCrowd finds or creates the persistent crowd once for the whole run (Crowd), so the
// parallel processes do not each log its members in: as many members as the wildcard-mention
// specs need where they can run (a configured threshold, or the fake), else the two the
// group-membership specs use. A member that cannot be had is left to Crowd, which fails only
// the specs that need it.
func (t *Target) provisionCrowd() error {
	size := 2
	switch n := t.Config.WildcardMentionThreshold; {
	case n > 0:
		size = n + 1
	case t.Capabilities["config"]:
		size = fakeWildcardMentionThreshold + 1
	}
	for i := 1; i <= size; i++ {
		u, err := t.persistentHuman(fmt.Sprintf("crowd-%d", i), Member)
		if err != nil {
			return nil
		}
		t.CrowdUsers = append(t.CrowdUsers, u)
	}
	return nil
}

// housekeeping counts the chores handed out by staffer.
var housekeeping atomic.Uint64

// staffer returns the administrator for the next chore: the staff in turn (each parallel
// process starting at another one), or the owner when there is no staff.
func (t *Target) staffer() User {
	if len(t.Staff) == 0 {
		return t.Users[Owner]
	}
	n := housekeeping.Add(1) + uint64(ginkgo.GinkgoParallelProcess())
	return t.Staff[n%uint64(len(t.Staff))]
}

// crowds caches, per target URL, the members found or made by Crowd, so the specs of one
// process look them up once.
var crowds = struct {
	sync.Mutex
	users map[string][]User
}{users: map[string][]User{}}

// Crowd returns n member accounts for specs that need many users (a channel with many
// subscribers, a topic with many participants): persistent members (crowd-1, crowd-2, …; see
// cast.go), found by Connect (or, beyond those, on first use) and shared by every spec and
// run; specs must not change their settings.
func (t *Target) Crowd(n int) []User {
	ginkgo.GinkgoHelper()
	crowds.Lock()
	defer crowds.Unlock()
	have := crowds.users[t.URL]
	if len(have) < len(t.CrowdUsers) {
		have = slices.Clone(t.CrowdUsers)
	}
	for len(have) < n {
		u, err := t.persistentHuman(fmt.Sprintf("crowd-%d", len(have)+1), Member)
		g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: creating member %d of a crowd", len(have)+1)
		have = append(have, u)
	}
	crowds.users[t.URL] = have
	return have[:n]
}
