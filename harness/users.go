package harness

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
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

// Custom profile field types, as the real server numbers them.
const (
	ProfileFieldShortText = 1
	ProfileFieldLongText  = 2
	ProfileFieldURL       = 5
	ProfileFieldUsers     = 6
)

// NeedsSetupPrefix starts the reason of a spec skipped because the target lacks setup that
// no API of the suite can do (an account permission such as can_change_user_emails, a
// login method): reported as skipped, with what to set up.
const NeedsSetupPrefix = "needs setup:"

// SkipNeedsSetup skips the spec as needing setup; reason says what is missing and how to
// provide it.
func SkipNeedsSetup(reason string) {
	ginkgo.GinkgoHelper()
	ginkgo.Skip(NeedsSetupPrefix + " " + reason)
}

// RoleCode returns the integer `role` of the API for a human role (100 owner … 600 guest),
// and 0 for Bot, which has no role code of its own.
func RoleCode(r Role) int { return roleCodes[r] }

// SetEmailVisibility sets u's own email_address_visibility (PATCH /settings as u).
// Failure fails the spec.
func (t *Target) SetEmailVisibility(u User, visibility int) {
	ginkgo.GinkgoHelper()
	_, err := t.api("PATCH", "/settings", &u, url.Values{"email_address_visibility": {strconv.Itoa(visibility)}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: setting the email visibility of %s to %d", u.Email, visibility)
}

// DeactivateUser deactivates u (DELETE /users/{id}) as a staff administrator, or as the owner
// when u is an owner, whom only an owner may deactivate. Failure fails the spec.
func (t *Target) DeactivateUser(u User) {
	ginkgo.GinkgoHelper()
	admin := t.staffer()
	if u.Role == Owner {
		admin = t.User(Owner)
	}
	_, err := t.api("DELETE", "/users/"+strconv.Itoa(u.ID), &admin, nil)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: deactivating %s", u.Email)
}

// NewOwner creates an organization owner without special permissions, for specs about what
// owners may do. Its owner role is taken away when the spec ends, so that owners do not pile
// up on a shared server. Failure fails the spec.
func (t *Target) NewOwner() User {
	ginkgo.GinkgoHelper()
	u := t.NewUser(Member)
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

// NewGroup creates a user group with a unique name (POST /user_groups/create, as a staff
// administrator) with these direct members (user IDs) and direct subgroups (group IDs), and
// returns its ID. The group is deactivated when the spec ends, as groups cannot be deleted.
// Failure fails the spec.
//
// On an older real server (its changelog) the same is done in the forms it takes: subgroups
// at creation from level 311 (added afterwards before), the answer's group_id from 317 (the
// group found by its name before), and deactivation from 290 (deletion before).
func (t *Target) NewGroup(members []int, subgroups ...int) int {
	ginkgo.GinkgoHelper()
	owner := t.staffer()
	if members == nil {
		members = []int{}
	}
	name := UniqueName("group")
	params := url.Values{"name": {name}, "description": {"made by chatconform"}, "members": {jsonParam(members)}}
	if len(subgroups) > 0 && t.FeatureLevel >= 311 {
		params.Set("subgroups", jsonParam(subgroups))
	}
	obj, err := t.api("POST", "/user_groups/create", &owner, params)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: creating a user group")
	id, ok := obj.int("group_id")
	if !ok && t.FeatureLevel < 317 {
		id, ok, err = t.groupNamed(name)
		g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: finding the new user group %q", name)
	}
	g.Expect(ok).To(gomega.BeTrue(), "harness: POST /user_groups/create returned no integer group_id")
	ginkgo.DeferCleanup(func() {
		// Best effort: a spec may have deactivated it already.
		if t.FeatureLevel >= 290 {
			_, _ = t.api("POST", "/user_groups/"+strconv.Itoa(id)+"/deactivate", &owner, nil)
		} else {
			_, _ = t.api("DELETE", "/user_groups/"+strconv.Itoa(id), &owner, nil)
		}
	})
	if len(subgroups) > 0 && t.FeatureLevel < 311 {
		t.AddSubgroups(id, subgroups...)
	}
	return id
}

// groupNamed finds a user group's ID by its name in GET /user_groups; found is false when
// no group has the name.
func (t *Target) groupNamed(name string) (id int, found bool, err error) {
	owner := t.staffer() // any administrator reads the groups
	obj, err := t.api("GET", "/user_groups", &owner, nil)
	if err != nil {
		return 0, false, err
	}
	groups, _ := obj["user_groups"].([]any)
	for _, raw := range groups {
		if group, _ := raw.(map[string]any); group["name"] == name {
			id, found = object(group).int("id")
			return id, found, nil
		}
	}
	return 0, false, nil
}

// AddSubgroups adds direct subgroups to a group (POST /user_groups/{id}/subgroups, as a staff
// administrator). Failure fails the spec.
func (t *Target) AddSubgroups(group int, subgroups ...int) {
	ginkgo.GinkgoHelper()
	owner := t.staffer()
	_, err := t.api("POST", "/user_groups/"+strconv.Itoa(group)+"/subgroups", &owner, url.Values{"add": {jsonParam(subgroups)}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: adding subgroups %v to group %d", subgroups, group)
}

// ProfileField creates a custom profile field of the given type with a unique name
// (POST /realm/profile_fields, as an administrator) and returns its ID; the field is
// deleted when the spec ends. Each spec gets a field of its own, so specs running side by
// side never change or delete one another's. Failure fails the spec.
func (t *Target) ProfileField(fieldType int) int {
	ginkgo.GinkgoHelper()
	admin := t.User(Admin)
	obj, err := t.api("POST", "/realm/profile_fields", &admin, url.Values{
		"name": {UniqueName("f")}, "field_type": {strconv.Itoa(fieldType)},
	})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: creating a custom profile field of type %d", fieldType)
	id, ok := obj.int("id")
	g.Expect(ok).To(gomega.BeTrue(), "harness: POST /realm/profile_fields returned no integer id")
	ginkgo.DeferCleanup(func() {
		// Best effort: the field is the spec's own, nothing else depends on it.
		_, _ = t.api("DELETE", "/realm/profile_fields/"+strconv.Itoa(id), &admin, nil)
	})
	return id
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// JWTSigner makes JSON Web Tokens for the target's JWT fetch (operation 9), signed with the
// key and algorithm the target verifies them with.
type JWTSigner struct {
	Key       string
	Algorithm string
	now       func() time.Time
}

// jwtValidity is how long the tokens of TokenFor stay valid: long enough for any clock skew
// between the suite and the target.
const jwtValidity = 24 * time.Hour

// NeedJWT returns a signer of tokens the target accepts, or skips the spec. The key and
// algorithm come from the settings jwt-key and jwt-algorithm for a target that claims the
// feature jwt; a fake whose configuration (the config capability) holds the JWT key gets a
// fresh random key for the spec, and its previous configuration back when the spec ends —
// such specs must be Serial. Without either the spec is skipped: not applicable when the
// target does not claim jwt, else as needing the key.
func (t *Target) NeedJWT() JWTSigner {
	ginkgo.GinkgoHelper()
	alg := t.Config.JWTAlgorithm
	if alg == "" {
		alg = JWTAlgorithms[0]
	}
	if t.Config.JWTKey != "" {
		t.NeedFeature("jwt")
		return JWTSigner{Key: t.Config.JWTKey, Algorithm: alg, now: t.Now}
	}
	if t.Capabilities["config"] {
		if prev, ok := t.fakeJWTConfig(); ok {
			requireSerial("setting the fake's JWT key")
			signer := JWTSigner{Key: randomKey(), Algorithm: alg, now: t.Now}
			set := url.Values{"jwt_key": {signer.Key}, "jwt_algorithm": {signer.Algorithm}}
			g.Expect(t.setFakeJWTConfig(set)).To(gomega.Succeed(), "harness: setting the fake's JWT key")
			ginkgo.DeferCleanup(func() {
				g.Expect(t.setFakeJWTConfig(prev)).To(gomega.Succeed(), "harness: restoring the fake's JWT settings")
			})
			return signer
		}
	}
	t.NeedFeature("jwt")
	ginkgo.Skip(NeedsCapabilityPrefix + " config (or the JWT key in the setting " + settingFlag("jwt-key") + ")")
	return JWTSigner{}
}

// fakeJWTConfig returns the PATCH /_fake/config parameters that restore the fake's JWT
// settings as they are now; ok is false when its configuration has no JWT settings. The fake
// never shows its key, only whether one is set, so a set key is restored as the fixture's.
func (t *Target) fakeJWTConfig() (url.Values, bool) {
	obj, err := t.call("GET", t.URL+"/_fake/config", nil, nil)
	if err != nil {
		return nil, false
	}
	cfg := object(asMap(obj["config"]))
	alg, hasAlg := cfg.string("jwt_algorithm")
	set, hasSet := cfg["jwt_key_set"].(bool)
	switch {
	case !hasAlg || !hasSet:
		return nil, false
	case set:
		return url.Values{"fixture_jwt_key": {"true"}}, true
	default:
		return url.Values{"jwt_key": {""}, "jwt_algorithm": {alg}}, true
	}
}

func (t *Target) setFakeJWTConfig(params url.Values) error {
	_, err := t.call("PATCH", t.URL+"/_fake/config", nil, params)
	return err
}

// randomKey is a fresh 256-bit key, hex encoded.
func randomKey() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("harness: no randomness for a JWT key: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// Token signs arbitrary claims, for specs about malformed payloads.
func (j JWTSigner) Token(claims map[string]any) string {
	ginkgo.GinkgoHelper()
	method := jwt.GetSigningMethod(j.Algorithm)
	g.Expect(method).NotTo(gomega.BeNil(), "harness: unknown JWT algorithm %q", j.Algorithm)
	token, err := jwt.NewWithClaims(method, jwt.MapClaims(claims)).SignedString([]byte(j.Key))
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: signing a JWT")
	return token
}

// TokenFor is a valid token for the user with this email: the email claim, and an expiry
// a day after the target's current time.
func (j JWTSigner) TokenFor(email string) string {
	ginkgo.GinkgoHelper()
	return j.Token(map[string]any{"email": email, "exp": j.now().Add(jwtValidity).Unix()})
}

// ExpiredTokenFor is TokenFor with an expiry a day before the target's current time.
func (j JWTSigner) ExpiredTokenFor(email string) string {
	ginkgo.GinkgoHelper()
	return j.Token(map[string]any{"email": email, "exp": j.now().Add(-jwtValidity).Unix()})
}

// WithKey returns a signer with another key, for badly signed tokens.
func (j JWTSigner) WithKey(key string) JWTSigner {
	j.Key = key
	return j
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
