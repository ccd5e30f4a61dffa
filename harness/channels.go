package harness

import (
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
	"net/url"
	"strconv"
)

// ChannelByName looks a channel up by name as u. Its Kind is not looked up
// and is left at its zero value.
func (t *Target) ChannelByName(u User, name string) Channel {
	ginkgo.GinkgoHelper()
	obj, err := t.api("GET", "/get_stream_id", &u, url.Values{"stream": {name}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: looking up channel %q as %s", name, who(u))
	id, ok := obj.int("stream_id")
	g.Expect(ok).To(gomega.BeTrue(), "harness: GET /get_stream_id?stream=%s returned no integer stream_id", name)
	return Channel{ID: id, Name: name}
}

// ChannelKind is a channel's access policy.
type ChannelKind int

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
func (k ChannelKind) inviteOnly() bool { return k != Public }

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
