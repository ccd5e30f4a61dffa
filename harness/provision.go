package harness

import (
	"crypto/rand"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// g fails the running spec; it does not depend on the bootstrap having
// called RegisterFailHandler.
var g = gomega.NewGomega(ginkgo.Fail)

// humanRoles are provisioned with POST /users; the owner comes from the
// configuration and the bot from POST /bots.
var humanRoles = []Role{Admin, Moderator, Member, Guest}

// provisionCast gives the target a user of every role: the configured account
// where there is one, else the persistent accounts of that role (cast.go), found
// or made through the public API, so the same path works on the fake and a real
// server. The bot is made for the run and deactivated by Teardown.
func (t *Target) provisionCast() error {
	for _, r := range append(humanRoles[:len(humanRoles):len(humanRoles)], Bot) {
		var (
			u   User
			err error
		)
		if cr, ok := t.Config.Users[r]; ok {
			u, err = t.whoAmI(r, cr)
		} else if r == Bot {
			u, err = t.createBot(t.Users[Owner])
		} else {
			u, err = t.provisionPool(r)
		}
		if err != nil {
			return fmt.Errorf("the %s: %w", r, err)
		}
		t.Users[r] = u
	}
	return nil
}

// provisionPool finds or creates the castSlots[r] persistent accounts of role r and returns
// the first.
func (t *Target) provisionPool(r Role) (User, error) {
	if t.Pool == nil {
		t.Pool = map[Role][]User{}
	}
	for i := range castSlots[r] {
		u, err := t.persistentHuman(castSlotName(r, i), r)
		if err != nil {
			return User{}, err
		}
		u.Provisioned = true
		t.Pool[r] = append(t.Pool[r], u)
	}
	return t.Pool[r][0], nil
}

// createHuman creates a user, fetches its API key with its password and
// gives it the role (new users are members).
func (t *Target) createHuman(r Role) (User, error) {
	owner := t.Users[Owner]
	name := uniqueName(t.RunID, string(r))
	password := randomPassword()
	u := User{
		Role:        r,
		Email:       name + "@" + emailDomain(owner.Email),
		FullName:    "Chatconform " + name,
		Provisioned: true,
	}

	obj, err := t.api("POST", "/users", &owner, url.Values{
		"email": {u.Email}, "password": {password}, "full_name": {u.FullName},
	})
	if err != nil {
		return User{}, fmt.Errorf("%w (the owner needs can_create_users, or give users.%s in the config file)", err, r)
	}
	var ok bool
	if u.ID, ok = obj.int("user_id"); !ok {
		return User{}, fmt.Errorf("POST /users: no integer user_id")
	}

	obj, err = t.api("POST", "/fetch_api_key", nil, url.Values{"username": {u.Email}, "password": {password}})
	if err != nil {
		return User{}, err
	}
	if u.APIKey, ok = obj.string("api_key"); !ok || u.APIKey == "" {
		return User{}, fmt.Errorf("POST /fetch_api_key: no api_key")
	}

	if r != Member {
		admin := t.staffer()
		_, err = t.api("PATCH", "/users/"+strconv.Itoa(u.ID), &admin, url.Values{"role": {strconv.Itoa(roleCodes[r])}})
		if err != nil {
			return User{}, err
		}
	}
	return u, nil
}

// createBot creates a generic bot owned by owner and reads back the email it
// authenticates with.
func (t *Target) createBot(owner User) (User, error) {
	short := uniqueName(t.RunID, "bot")
	u := User{Role: Bot, FullName: "Chatconform " + short, Provisioned: true}
	obj, err := t.api("POST", "/bots", &owner, url.Values{"full_name": {u.FullName}, "short_name": {short}})
	if err != nil {
		return User{}, err
	}
	var ok bool
	if u.ID, ok = obj.int("user_id"); !ok {
		return User{}, fmt.Errorf("POST /bots: no integer user_id")
	}
	if u.APIKey, ok = obj.string("api_key"); !ok || u.APIKey == "" {
		return User{}, fmt.Errorf("POST /bots: no api_key")
	}

	obj, err = t.api("GET", "/users/"+strconv.Itoa(u.ID), &owner, nil)
	if err != nil {
		return User{}, err
	}
	user, _ := obj["user"].(map[string]any)
	// The Basic username is the real (delivery) email; `email` may be a
	// dummy address when email visibility is restricted.
	for _, key := range []string{"delivery_email", "email"} {
		if s, _ := user[key].(string); s != "" {
			u.Email = s
			break
		}
	}
	if u.Email == "" {
		return User{}, fmt.Errorf("GET /users/%d: no user.delivery_email or user.email", u.ID)
	}
	return u, nil
}

// Channel kinds: public; private with history shared with new subscribers;
// private with protected history (subscribers see only messages sent after
// they joined).
const (
	Public ChannelKind = iota
	PrivateShared
	PrivateProtected
)

// emailDomain returns what follows the last @.
func emailDomain(email string) string {
	return email[strings.LastIndexByte(email, '@')+1:]
}

// randomPassword returns 24 random letters and digits: strong enough for
// any password policy that counts length, and safe in a form body.
func randomPassword() string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("harness: no randomness for a password: " + err.Error())
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
