package harness

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// What a spec creates is taken away when it ends (docs/footprint.md): users are
// deactivated, channels unsubscribed and archived. The chores go to the
// staff administrators in turn, so the owner's request budget is left to the specs.

// DeactivateAtEnd deactivates u (a human, or a bot when u.Role is Bot) when the running spec
// ends. A user the spec deactivated itself is left as it is. Failure fails the spec.
func (t *Target) DeactivateAtEnd(u User) {
	ginkgo.GinkgoHelper()
	ginkgo.DeferCleanup(func() {
		g.Expect(t.deactivate(u)).To(gomega.Succeed(), "harness: deactivating %s (user %d) at the end of the spec", u.Email, u.ID)
	})
}

// deactivate deactivates a user or bot as a staff administrator (DELETE /users/{id}, or
// DELETE /bots/{id} for a bot); a user already deactivated is no error.
func (t *Target) deactivate(u User) error {
	admin := t.staffer()
	path := "/users/" + strconv.Itoa(u.ID)
	if u.Role == Bot {
		path = "/bots/" + strconv.Itoa(u.ID)
	}
	_, err := t.api(http.MethodDelete, path, &admin, nil)
	if err == nil {
		return nil
	}
	obj, lookupErr := t.api(http.MethodGet, "/users/"+strconv.Itoa(u.ID), &admin, nil)
	if user := asMap(obj["user"]); lookupErr == nil && user["is_active"] == false {
		return nil
	}
	return err
}

// ArchiveAtEnd unsubscribes the cast from ch and archives it when the running spec ends
// (DELETE /users/me/subscriptions, then DELETE /streams/{id}, as a staff administrator). A
// channel the spec archived itself is left as it is. Failure fails the spec.
func (t *Target) ArchiveAtEnd(ch Channel) {
	ginkgo.GinkgoHelper()
	ginkgo.DeferCleanup(func() {
		g.Expect(t.archive(ch)).To(gomega.Succeed(), "harness: archiving channel %q at the end of the spec", ch.Name)
	})
}

func (t *Target) archive(ch Channel) error {
	admin := t.staffer()
	_, err := t.api(http.MethodDelete, "/users/me/subscriptions", &admin, url.Values{
		"subscriptions": {jsonParam([]string{ch.Name})},
		"principals":    {jsonParam(t.castIDs())},
	})
	var apiErr *APIError
	// A target without the route (404, or 405 beside the subscribe route) keeps the
	// subscriptions; archiving still takes the channel out of use.
	if err != nil && !(errors.As(err, &apiErr) && (apiErr.Status == http.StatusNotFound || apiErr.Status == http.StatusMethodNotAllowed)) {
		return err
	}
	_, err = t.api(http.MethodDelete, "/streams/"+strconv.Itoa(ch.ID), &admin, nil)
	if err != nil && errors.As(err, &apiErr) && strings.Contains(apiErr.Msg, "already deactivated") {
		return nil
	}
	return err
}

// castIDs lists the IDs of the spec's cast and of the crowd: everyone the harness subscribes
// to channels.
func (t *Target) castIDs() []int {
	ids := []int{}
	for _, r := range Roles {
		if u, ok := t.Users[r]; ok {
			ids = append(ids, u.ID)
		}
	}
	crowds.Lock()
	crowd := append(slices.Clone(t.CrowdUsers), crowds.users[t.URL]...)
	crowds.Unlock()
	for _, u := range crowd {
		if !slices.Contains(ids, u.ID) {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// shared holds this process's shared channel (SharedChannel).
var shared struct {
	sync.Mutex
	channel *Channel
}

// SharedChannel returns a public channel, with the owner and the first member of the crowd
// subscribed, that the specs of this process share: for specs that only need an existing
// channel to name and change nothing in it (a request refused before it acts), or a message
// there to read. It is made on first use and archived by TeardownProcess. Failure fails the
// spec.
func (t *Target) SharedChannel() Channel {
	ginkgo.GinkgoHelper()
	shared.Lock()
	defer shared.Unlock()
	if shared.channel == nil {
		ch := t.newChannel(Public, t.CrowdUsers[:min(1, len(t.CrowdUsers))]...)
		shared.channel = &ch
	}
	return *shared.channel
}

// TeardownProcess archives what the specs of this process shared. Run it in every process
// when its specs have ended.
func (t *Target) TeardownProcess() error {
	shared.Lock()
	defer shared.Unlock()
	if shared.channel == nil {
		return nil
	}
	err := t.archive(*shared.channel)
	shared.channel = nil
	return err
}

// Teardown deactivates what the run made for itself alone: the bot of the cast, when the run
// created it. Run it once, when the whole suite has ended.
func (t *Target) Teardown() error {
	if bot, ok := t.Users[Bot]; ok && bot.Provisioned {
		return t.deactivate(bot)
	}
	return nil
}
