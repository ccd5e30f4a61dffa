package harness

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// Helpers of the message editing, moving, muting, narrow and read-marking specs.

// SystemGroupID returns the ID of one of the target's system user groups by its name
// ("role:administrators", "role:members", "role:everyone", …), as GET /user_groups lists them.
func (t *Target) SystemGroupID(name string) int {
	ginkgo.GinkgoHelper()
	id, found, err := t.groupNamed(name)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: listing the user groups")
	if !found {
		ginkgo.Fail(fmt.Sprintf("harness: the target has no user group named %q", name))
	}
	return id
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
		{"can_move_messages_between_topics_group", "edit_topic_policy", 316},
		{"can_move_messages_between_channels_group", "move_messages_between_streams_policy", 310},
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
// The document gives no threshold, so against any other target the spec is not applicable.
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
	ginkgo.Skip(NotApplicablePrefix + " the document does not give the many-subscribers threshold; set " + settingFlag("wildcard-mention-threshold"))
	return 0
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
