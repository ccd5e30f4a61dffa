package harness

import (
	"net/url"
	"strconv"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// ReportDir is where the conformance reports go (the configured directory,
// "reports" by default).
func (t *Target) ReportDir() string {
	if t.Config.ReportDir == "" {
		return setting("report-dir").Default
	}
	return t.Config.ReportDir
}

// NewUser creates a fresh user of role r (a bot for Bot), for specs that change a user's own
// settings and so must not share the cast's. The user is deactivated when the spec ends
// (DeactivateAtEnd). Failure fails the spec.
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

// SendToEmptyTopic sends a channel message with the empty topic (valid from
// feature level 334) as u and returns its id.
func (t *Target) SendToEmptyTopic(u User, ch Channel) int {
	ginkgo.GinkgoHelper()
	return t.send(u, url.Values{
		"type": {"stream"}, "to": {strconv.Itoa(ch.ID)}, "topic": {""}, "content": {"empty topic " + UniqueName("m")},
	}, "to channel "+strconv.Quote(ch.Name)+" with the empty topic")
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

// AddLinkifier adds a linkifier to the realm as an administrator and
// returns its id; the linkifier is deleted when the spec ends, because
// linkifiers are realm-wide and would pile up on a shared server.
func (t *Target) AddLinkifier(pattern, urlTemplate string) int {
	ginkgo.GinkgoHelper()
	admin := t.User(Admin)
	obj, err := t.api("POST", "/realm/filters", &admin, url.Values{"pattern": {pattern}, "url_template": {urlTemplate}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: adding linkifier %q", pattern)
	id, ok := obj.int("id")
	g.Expect(ok).To(gomega.BeTrue(), "harness: POST /realm/filters returned no integer id")
	ginkgo.DeferCleanup(func() {
		// Best effort: a spec may have deleted it already.
		_, _ = t.api("DELETE", "/realm/filters/"+strconv.Itoa(id), &admin, nil)
	})
	return id
}
