package harness

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// What the specs change through the fake's control API (/_fake/, with the capability they
// declared): its configuration (the push service, the video-call integration, batch sizes), a
// user's video-call token, and virtual time.

// SetFakeConfig changes one setting of the fake's configuration (PATCH /_fake/config) for the
// rest of the spec and restores its value when the spec ends. Callers declare the config
// capability first, and their specs are Serial: the configuration is server-wide.
func (t *Target) SetFakeConfig(name string, value any) {
	ginkgo.GinkgoHelper()
	requireSerial("changing the fake's configuration")
	obj, err := t.call(http.MethodGet, t.URL+"/_fake/config", nil, nil)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: reading the fake's configuration")
	config, _ := obj["config"].(map[string]any)
	previous, known := config[name]
	g.Expect(known).To(gomega.BeTrue(), "harness: the fake's configuration has no %s", name)
	patch := func(v any) error {
		_, err := t.call(http.MethodPatch, t.URL+"/_fake/config", nil, url.Values{name: {jsonParam(v)}})
		return err
	}
	g.Expect(patch(value)).To(gomega.Succeed(), "harness: setting the fake's %s to %v", name, value)
	ginkgo.DeferCleanup(func() {
		g.Expect(patch(previous)).To(gomega.Succeed(), "harness: restoring the fake's %s to %v", name, previous)
	})
}

// UsePushService makes the spec run against a server with a push notification service: a
// target that claims the push feature has one; on the fake it is switched on for the spec
// (config capability, Serial spec); otherwise the spec is not applicable.
func (t *Target) UsePushService() {
	ginkgo.GinkgoHelper()
	t.useIntegration("push", "push_configured")
}

// WithoutPushService makes the spec run against a server without a push notification
// service: on the fake it is switched off for the spec; a target that claims the push
// feature has one, so the spec is not applicable there; any other target is taken at its word.
func (t *Target) WithoutPushService() {
	ginkgo.GinkgoHelper()
	t.withoutIntegration("push", "push_configured", "so it has a push notification service")
}

// UseVideoCalls makes the spec run against a server whose video-call integration is
// configured: a target claiming the vcall feature, or the fake with the integration switched
// on for the spec. The user's provider token comes from the control API (vcall-token).
func (t *Target) UseVideoCalls() {
	ginkgo.GinkgoHelper()
	t.NeedCapability("vcall-token")
	t.useIntegration("vcall", "video_calls_configured")
}

// WithoutVideoCalls makes the spec run against a server whose video-call integration is not
// configured: on the fake it is switched off for the spec; a target claiming the vcall
// feature is not applicable; any other target is taken at its word.
func (t *Target) WithoutVideoCalls() {
	ginkgo.GinkgoHelper()
	t.withoutIntegration("vcall", "video_calls_configured", "so its video-call integration is configured")
}

// useIntegration has the spec run with the integration of an optional feature: a target
// claiming the feature has it; the fake gets its configuration setting switched on for the
// spec; on any other target the spec is not applicable.
func (t *Target) useIntegration(feature, setting string) {
	ginkgo.GinkgoHelper()
	if t.Features[feature] {
		return
	}
	if !t.Capabilities["config"] {
		t.NeedFeature(feature)
	}
	t.SetFakeConfig(setting, true)
}

// withoutIntegration has the spec run without the integration of an optional feature: the
// fake gets its setting switched off for the spec; a target claiming the feature is not
// applicable (claimed says what the claim implies); any other target is taken at its word.
func (t *Target) withoutIntegration(feature, setting, claimed string) {
	ginkgo.GinkgoHelper()
	if t.Capabilities["config"] {
		t.SetFakeConfig(setting, false)
		return
	}
	if t.Features[feature] {
		ginkgo.Skip(NotApplicablePrefix + " the target claims feature " + feature + ", " + claimed)
	}
}

// PassTime moves the target's virtual clock forward by d (POST /_fake/clock), which also
// delivers what falls due (reminders, upload expiry). Callers declare the clock capability;
// their specs are Serial, because every spec shares the clock.
func (t *Target) PassTime(d time.Duration) {
	ginkgo.GinkgoHelper()
	requireSerial("moving the fake's clock")
	seconds := int64(d / time.Second)
	_, err := t.call(http.MethodPost, t.URL+"/_fake/clock", nil, url.Values{"advance": {strconv.FormatInt(seconds, 10)}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: moving the clock forward by %s", d)
}

// envelopeKeys are the fields every success response may carry.
var envelopeKeys = map[string]bool{"result": true, "msg": true, "ignored_parameters_unsupported": true}

// LimitBatches makes the fake's batched operations (delete topic, mark all as read) handle
// at most maxBatches batches of size messages per request, for the rest of the spec, so that
// a spec can see a request end early (complete = false). It needs the batch capability: the
// document leaves batch sizes and time budgets to the server. Such specs are Serial.
func (t *Target) LimitBatches(size, maxBatches int) {
	ginkgo.GinkgoHelper()
	t.NeedCapability("batch", "config")
	t.SetFakeConfig("delete_batch_size", size)
	t.SetFakeConfig("max_batches_per_request", maxBatches)
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
