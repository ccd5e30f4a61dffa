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

// provisionPool finds or creates the castSlots persistent accounts of role r and returns the
// first.
func (t *Target) provisionPool(r Role) (User, error) {
	if t.Pool == nil {
		t.Pool = map[Role][]User{}
	}
	for i := range castSlots {
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

// ChannelKind is a channel's access policy.
type ChannelKind int

// Channel kinds: public; private with history shared with new subscribers;
// private with protected history (subscribers see only messages sent after
// they joined).
const (
	Public ChannelKind = iota
	PrivateShared
	PrivateProtected
)

// String names the kind.
func (k ChannelKind) String() string {
	switch k {
	case Public:
		return "public"
	case PrivateShared:
		return "private-shared"
	case PrivateProtected:
		return "private-protected"
	}
	return "channel-kind-" + strconv.Itoa(int(k))
}

// inviteOnly and historyPublic are the POST /users/me/subscriptions
// parameters that make each kind.
func (k ChannelKind) inviteOnly() bool    { return k != Public }
func (k ChannelKind) historyPublic() bool { return k != PrivateProtected }

// Channel is a channel a spec created.
type Channel struct {
	ID   int
	Name string
	Kind ChannelKind
}

// NewChannel creates a channel with a unique name, subscribing the owner and the given
// users, and returns it; the channel is unsubscribed and archived when the spec ends
// (ArchiveAtEnd). A staff administrator creates it, so the owner's requests are left to the
// specs. Failure fails the spec.
func (t *Target) NewChannel(kind ChannelKind, subscribers ...User) Channel {
	ginkgo.GinkgoHelper()
	ch := t.newChannel(kind, subscribers...)
	t.ArchiveAtEnd(ch)
	return ch
}

// newChannel is NewChannel without the cleanup.
func (t *Target) newChannel(kind ChannelKind, subscribers ...User) Channel {
	ginkgo.GinkgoHelper()
	name := UniqueName(kind.String())
	owner := t.User(Owner)
	ids := userIDs(append([]User{owner}, subscribers...))
	creator := t.staffer()
	_, err := t.api("POST", "/users/me/subscriptions", &creator, url.Values{
		"subscriptions":                 {jsonParam([]map[string]string{{"name": name}})},
		"invite_only":                   {strconv.FormatBool(kind.inviteOnly())},
		"history_public_to_subscribers": {strconv.FormatBool(kind.historyPublic())},
		"principals":                    {jsonParam(ids)},
	})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: creating %s channel %q", kind, name)

	// Anyone may look a public channel up; a private one only its subscribers.
	finder := creator
	if kind.inviteOnly() {
		finder = owner
		for _, u := range subscribers {
			if u.ID != owner.ID {
				finder = u
				break
			}
		}
	}
	obj, err := t.api("GET", "/get_stream_id", &finder, url.Values{"stream": {name}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: looking up the id of channel %q", name)
	id, ok := obj.int("stream_id")
	g.Expect(ok).To(gomega.BeTrue(), "harness: GET /get_stream_id?stream=%s returned no integer stream_id", name)
	return Channel{ID: id, Name: name, Kind: kind}
}

// Subscribe subscribes the given users to ch, as a staff administrator (as the owner
// for a private channel, which only its subscribers may open to others: NewChannel subscribes
// the owner). Failure fails the spec.
func (t *Target) Subscribe(ch Channel, users ...User) {
	ginkgo.GinkgoHelper()
	admin := t.subscriber(ch)
	ids := userIDs(users)
	_, err := t.api("POST", "/users/me/subscriptions", &admin, url.Values{
		"subscriptions": {jsonParam([]map[string]string{{"name": ch.Name}})},
		"principals":    {jsonParam(ids)},
	})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: subscribing users %v to channel %q", ids, ch.Name)
}

// subscriber is who subscribes others to ch: a staff administrator for a public channel, else
// the owner, whom NewChannel subscribes to every channel.
func (t *Target) subscriber(ch Channel) User {
	ginkgo.GinkgoHelper()
	if ch.Kind.inviteOnly() {
		return t.User(Owner)
	}
	return t.staffer()
}

// SendToChannel sends a channel message as u and returns its id. Failure fails the spec.
func (t *Target) SendToChannel(u User, ch Channel, topic, content string) int {
	ginkgo.GinkgoHelper()
	return t.send(u, url.Values{
		"type": {"stream"}, "to": {strconv.Itoa(ch.ID)}, "topic": {topic}, "content": {content},
	}, fmt.Sprintf("to channel %q topic %q", ch.Name, topic))
}

// SendDirect sends a direct message from the user from to the users to and returns its id.
// Failure fails the spec.
func (t *Target) SendDirect(from User, to []User, content string) int {
	ginkgo.GinkgoHelper()
	ids := userIDs(to)
	return t.send(from, url.Values{
		"type": {t.DirectMessageType()}, "to": {jsonParam(ids)}, "content": {content},
	}, fmt.Sprintf("directly to users %v", ids))
}

// send posts a message as sender and returns its id.
func (t *Target) send(sender User, params url.Values, what string) int {
	ginkgo.GinkgoHelper()
	obj, err := t.api("POST", "/messages", &sender, params)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: sending a message as %s %s", who(sender), what)
	id, ok := obj.int("id")
	g.Expect(ok).To(gomega.BeTrue(), "harness: POST /messages returned no integer id")
	return id
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
