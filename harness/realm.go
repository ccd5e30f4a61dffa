package harness

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// AddLinkifier adds a linkifier to the realm as an administrator, its URL in
// the form the target's level takes (linkifierURLField), and returns its id; the linkifier is deleted when the spec ends, because
// linkifiers are realm-wide and would pile up on a shared server.
func (t *Target) AddLinkifier(pattern, urlTemplate string) int {
	ginkgo.GinkgoHelper()
	field, value := t.linkifierURLField(urlTemplate)
	return t.createRealmObject("/realm/filters", url.Values{"pattern": {pattern}, field: {value}},
		fmt.Sprintf("adding linkifier %q", pattern))
}

// createRealmObject creates a realm-wide object (POST path, as an administrator), returns its
// id, and deletes it (DELETE path/{id}) when the spec ends, so that such objects do not pile
// up on a shared server.
func (t *Target) createRealmObject(path string, params url.Values, what string) int {
	ginkgo.GinkgoHelper()
	admin := t.User(Admin)
	obj, err := t.api("POST", path, &admin, params)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: %s", what)
	id, ok := obj.int("id")
	g.Expect(ok).To(gomega.BeTrue(), "harness: POST %s returned no integer id", path)
	ginkgo.DeferCleanup(func() {
		// Best effort: a spec may have deleted it already.
		_, _ = t.api("DELETE", path+"/"+strconv.Itoa(id), &admin, nil)
	})
	return id
}

// Custom profile field types, as the real server numbers them.
const (
	ProfileFieldShortText = 1
	ProfileFieldLongText  = 2
	ProfileFieldDate      = 4
	ProfileFieldURL       = 5
	ProfileFieldUsers     = 6
)

// ProfileField creates a custom profile field of the given type with a unique name
// (POST /realm/profile_fields, as an administrator) and returns its ID; the field is
// deleted when the spec ends. Each spec gets a field of its own, so specs running side by
// side never change or delete one another's. Failure fails the spec.
func (t *Target) ProfileField(fieldType int) int {
	ginkgo.GinkgoHelper()
	return t.createRealmObject("/realm/profile_fields", url.Values{
		"name": {UniqueName("f")}, "field_type": {strconv.Itoa(fieldType)},
	}, fmt.Sprintf("creating a custom profile field of type %d", fieldType))
}

// ChangeRealmGroupSetting points a realm permission group setting (can_resolve_topics_group,
// can_mention_many_users_group, …) at the group with the given ID for the rest of the spec
// and restores its value when the spec ends. It sends the real server's {"new": …} form.
// Such specs must be marked Serial (docs/design.md, "Hermetic specs").
func (t *Target) ChangeRealmGroupSetting(name string, groupID int) {
	ginkgo.GinkgoHelper()
	requireSerial("changing a realm group setting")
	state := t.StateOf(t.User(Admin), "realm").Raw()
	previous, known := state["realm_"+name]
	g.Expect(known).To(gomega.BeTrue(), "harness: the registration state has no realm_%s to restore later", name)
	admin := t.User(Admin)
	patch := func(v any) error {
		_, err := t.api(http.MethodPatch, "/realm", &admin, url.Values{name: {jsonParam(map[string]any{"new": v})}})
		return err
	}
	g.Expect(patch(groupID)).To(gomega.Succeed(), "harness: setting realm %s to group %d", name, groupID)
	ginkgo.DeferCleanup(func() {
		g.Expect(patch(previous)).To(gomega.Succeed(), "harness: restoring realm %s to %v", name, previous)
	})
}

// LetMembersMove lets every member move messages between topics and between channels, through
// the group settings where the target's level has them (the real server's changelog: channels
// from 310, topics from 316) and through the role policies they replaced below (1: members).
func (t *Target) LetMembersMove() {
	ginkgo.GinkgoHelper()
	for _, p := range []struct {
		group, policy string
		since         int
	}{
		{"can_move_messages_between_topics_group", "edit_topic_policy", levelTopicMoveGroup},
		{"can_move_messages_between_channels_group", "move_messages_between_streams_policy", levelChannelMoveGroup},
	} {
		if t.FeatureLevel >= p.since {
			t.ChangeRealmGroupSetting(p.group, t.SystemGroupID("role:members"))
		} else {
			t.ChangeRealmSetting(p.policy, 1)
		}
	}
}

// fakeWildcardMentionThreshold is the fake's (and the real server's) many-recipients
// threshold for wildcard mentions: more than 15 subscribers or participants are many.
const fakeWildcardMentionThreshold = 15

// WildcardMentionCrowdSize returns how many users make a channel's subscribers or a
// topic's participants "many" for wildcard mentions (Limits: wildcard mentions): one more
// than the threshold of the setting wildcard-mention-threshold, or, when that is not set,
// than the fake's when the target is the fake (its control API answers and offers config).
// The document gives no threshold, so against any other target the spec is skipped as
// needing that setting (the rule applies; the run cannot check it without the number).
func (t *Target) WildcardMentionCrowdSize() int {
	ginkgo.GinkgoHelper()
	if n := t.Config.WildcardMentionThreshold; n > 0 {
		return n + 1
	}
	if t.Capabilities["config"] {
		if _, err := t.call(http.MethodGet, t.URL+"/_fake/health", nil, nil); err == nil {
			return fakeWildcardMentionThreshold + 1
		}
	}
	SkipNeedsSetup("the document does not give the many-subscribers threshold; set " + settingFlag("wildcard-mention-threshold"))
	return 0
}

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
