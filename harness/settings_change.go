package harness

import (
	"net/url"
	"strconv"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// ChangeRealmSetting sets one realm-wide setting (PATCH /realm as an administrator) for the
// rest of the spec and restores the value it had when the spec ends. It is the one place
// where specs change the realm; such specs must be marked Serial (docs/design.md, "Hermetic specs").
// A null value in the registration state is an unlimited time limit, restored as "unlimited".
func (t *Target) ChangeRealmSetting(name string, value any) {
	ginkgo.GinkgoHelper()
	requireSerial("changing a realm setting")
	state := t.StateOf(t.User(Admin), "realm").Raw()
	previous, known := state["realm_"+name]
	g.Expect(known).To(gomega.BeTrue(), "harness: the registration state has no realm_%s to restore later", name)
	if previous == nil {
		previous = "unlimited"
	}
	admin := t.User(Admin)
	patch := func(v any) error {
		_, err := t.api("PATCH", "/realm", &admin, url.Values{name: {jsonParam(v)}})
		return err
	}
	g.Expect(patch(value)).To(gomega.Succeed(), "harness: setting realm %s to %v", name, value)
	ginkgo.DeferCleanup(func() {
		g.Expect(patch(previous)).To(gomega.Succeed(), "harness: restoring realm %s to %v", name, previous)
	})
}

// SetVCallToken gives or takes the user's video-call integration token through the fake's
// control API (a user obtains one from the provider, outside the chat API). Specs call it
// after NeedCapability("vcall-token").
func (t *Target) SetVCallToken(u User, has bool) {
	ginkgo.GinkgoHelper()
	_, err := t.call("POST", t.URL+"/_fake/vcall_token", nil, url.Values{
		"user_id": {strconv.Itoa(u.ID)}, "has_token": {strconv.FormatBool(has)},
	})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: setting the video-call token of %s", u.Email)
}
