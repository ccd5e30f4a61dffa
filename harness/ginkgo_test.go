package harness

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavv/httpexpect/v2"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
)

// The specs below check what only works inside a running Ginkgo spec: the
// spec-level provisioning helpers, the spec header, report entries and
// skips. TestInGinkgo runs them and then checks the skips' reasons.

var (
	ranMu   sync.Mutex
	ranSpec types.SpecReports
)

func TestInGinkgo(t *testing.T) {
	RegisterFailHandler(Fail)
	if !RunSpecs(t, "harness in Ginkgo") {
		return
	}
	want := map[string]string{
		"gates skips without a capability":             "needs capability clock, journal",
		"gates skips an unclaimed feature":             "not applicable: target does not claim feature vcall",
		"gates skips a feature level that is too low":  "not applicable: needs feature level 501, target has 500",
		"gates skips a feature level that is too high": "not applicable: needs feature level below 500, target has 500",
		"wildcard crowd skips without a threshold":     "needs setup: the document does not give the many-subscribers threshold; set -chatconform.wildcard-mention-threshold",
	}
	ranMu.Lock()
	defer ranMu.Unlock()
	for _, s := range ranSpec {
		if reason, ok := want[s.FullText()]; ok {
			delete(want, s.FullText())
			if s.State != types.SpecStateSkipped || s.Failure.Message != reason {
				t.Errorf("%q: %s %q, want skipped %q", s.FullText(), s.State, s.Failure.Message, reason)
			}
		}
	}
	for name := range want {
		t.Errorf("spec %q did not run", name)
	}
}

var _ = ReportAfterEach(func(r SpecReport) {
	ranMu.Lock()
	ranSpec = append(ranSpec, r)
	ranMu.Unlock()
})

var _ = Describe("provisioning", func() {
	var (
		fake *testFake
		tgt  *Target
	)
	BeforeEach(func() { fake, tgt = connectToTestFake() })

	It("creates channels of each kind with their subscribers", func() {
		for _, tc := range []struct {
			kind                ChannelKind
			inviteOnly, history string
		}{{Public, "false", "true"}, {PrivateShared, "true", "true"}, {PrivateProtected, "true", "false"}} {
			ch := tgt.NewChannel(tc.kind, tgt.User(Member), tgt.User(Guest), tgt.User(Member))
			Expect(ch.Name).To(HavePrefix(tc.kind.String() + "-" + tgt.RunID + "-"))
			Expect(ch.Kind).To(Equal(tc.kind))
			got, ok := fake.channels[ch.Name]
			Expect(ok).To(BeTrue())
			Expect(got.ID).To(Equal(ch.ID))
			Expect(got.InviteOnly).To(Equal(tc.inviteOnly), "invite_only of %s", tc.kind)
			Expect(got.HistoryPublic).To(Equal(tc.history), "history_public_to_subscribers of %s", tc.kind)
			Expect(got.Subscribers).To(Equal(map[int]bool{
				tgt.Users[Owner].ID: true, tgt.Users[Member].ID: true, tgt.Users[Guest].ID: true,
			}))

			tgt.Subscribe(ch, tgt.User(Admin), tgt.User(Bot))
			Expect(got.Subscribers).To(HaveKey(tgt.Users[Admin].ID))
			Expect(got.Subscribers).To(HaveKey(tgt.Users[Bot].ID))
		}
	})

	It("sends channel and direct messages as the given role", func() {
		ch := tgt.NewChannel(Public, tgt.User(Member))
		id := tgt.SendToChannel(tgt.User(Member), ch, "greetings", "hello")
		dm := tgt.SendDirect(tgt.User(Guest), []User{tgt.User(Member), tgt.User(Admin)}, "psst")
		Expect(dm).To(Equal(id + 1))

		// The first message is the clock check of Connect.
		Expect(fake.messages).To(HaveLen(3))
		Expect(fake.messages[0]["content"]).To(HavePrefix("chatconform clock check"))
		fake.messages = fake.messages[1:]
		Expect(fake.messages[0]).To(Equal(url_values{
			"sender": strconv.Itoa(tgt.Users[Member].ID), "type": "stream", "to": strconv.Itoa(ch.ID),
			"topic": "greetings", "content": "hello",
		}))
		var to []int
		Expect(json.Unmarshal([]byte(fake.messages[1]["to"]), &to)).To(Succeed())
		Expect(to).To(Equal([]int{tgt.Users[Member].ID, tgt.Users[Admin].ID}))
		Expect(fake.messages[1]["type"]).To(Equal("direct"))
		Expect(fake.messages[1]["sender"]).To(Equal(strconv.Itoa(tgt.Users[Guest].ID)))
	})

	It("names the spec in every request and records the status it saw", func() {
		n := len(fake.specHeaders)
		Success(tgt.As(tgt.User(Member)).GET("/users/me").Expect())
		FailsWith(tgt.Anonymous().GET("/users/me").Expect(), "UNAUTHORIZED")

		full := CurrentSpecReport().FullText()
		Expect(fake.specHeaders[n:]).To(Equal([]string{full, full}))
		// Connect ran inside this spec's BeforeEach, so it is named too.
		Expect(fake.specHeaders[:n]).To(HaveEach(full))

		var notes []string
		for _, e := range CurrentSpecReport().ReportEntries {
			notes = append(notes, e.Name+": "+e.StringRepresentation())
		}
		Expect(notes).To(ConsistOf(
			ContainSubstring("GET /api/v1/users/me: HTTP 200"),
			ContainSubstring("GET /api/v1/users/me: HTTP 401"),
		))
		Expect(CurrentSpecReport().ReportEntries[0].Visibility).To(Equal(ReportEntryVisibilityFailureOrVerbose))
	})

	It("logs exchanges without credentials", func() {
		Success(tgt.As(tgt.User(Guest)).GET("/users/me").Expect())
		out := CurrentSpecReport().CapturedGinkgoWriterOutput
		Expect(out).To(ContainSubstring("--> GET " + tgt.URL + "/api/v1/users/me"))
		Expect(out).To(ContainSubstring("Authorization: Basic " + tgt.Users[Guest].Email + ":****"))
		for _, u := range tgt.Users {
			Expect(out).NotTo(ContainSubstring(u.APIKey))
		}
	})
})

var _ = Describe("spec helpers", func() {
	var (
		fake *testFake
		tgt  *Target
	)
	BeforeEach(func() { fake, tgt = connectToTestFake() })

	It("creates fresh users of any role", func() {
		for _, r := range []Role{Member, Guest, Admin, Bot} {
			u := tgt.NewUser(r)
			Expect(u.Role).To(Equal(r))
			Expect(u.ID).NotTo(Equal(tgt.Users[r].ID))
			fu := fake.byEmail(u.Email)
			Expect(fu).NotTo(BeNil())
			Expect(fu.Key).To(Equal(u.APIKey))
			Expect(fu.Bot).To(Equal(r == Bot))
			if r != Bot {
				Expect(fu.Role).To(Equal(roleCodes[r]))
			}
		}
	})

	It("looks channels up, sends to the empty topic and reads API emails", func() {
		ch := tgt.NewChannel(Public, tgt.User(Member))
		Expect(tgt.ChannelByName(tgt.User(Member), ch.Name)).To(Equal(Channel{ID: ch.ID, Name: ch.Name}))

		tgt.SendToEmptyTopic(tgt.User(Owner), ch)
		last := fake.messages[len(fake.messages)-1]
		Expect(last).To(HaveKeyWithValue("topic", ""))
		Expect(last).To(HaveKeyWithValue("to", strconv.Itoa(ch.ID)))

		owner := tgt.Users[Owner].ID
		Expect(tgt.APIEmail(tgt.User(Member), owner)).To(Equal(fmt.Sprintf("user%d@chat.example.test", owner)))
	})

	It("adds linkifiers and removes them when the spec ends", func() {
		var id int
		// Registered first, so it runs after the helper's cleanup (LIFO).
		DeferCleanup(func() { Expect(fake.linkifiers).NotTo(HaveKey(id)) })
		id = tgt.AddLinkifier("abc-(?P<id>[0-9]+)", "https://x.test/{id}")
		Expect(fake.linkifiers).To(HaveKeyWithValue(id, "abc-(?P<id>[0-9]+) https://x.test/{id}"))
	})

	It("reads realm state from the registration response", func() {
		state := tgt.StateOf(tgt.User(Member), "realm")
		Expect(state.Value("max_topic_length").Number().Raw()).To(BeNumerically("==", 60))
		Expect(fake.fetchEventTypes[len(fake.fetchEventTypes)-1]).To(Equal(`["realm"]`))
		tgt.StateOf(tgt.User(Member))
		Expect(fake.fetchEventTypes[len(fake.fetchEventTypes)-1]).To(BeEmpty())
	})

	It("compares timestamps with the target's clock", func() {
		Expect(tgt.Now().Unix()).To(BeNumerically("==", fake.clockNow))
		rec := &recorder{}
		v := httpexpect.NewValue(rec, float64(fake.clockNow+60))
		ExpectTimestampNow(v)
		Expect(rec.take()).To(BeEmpty())
		ExpectTimestampNow(httpexpect.NewValue(rec, float64(time.Now().Unix())))
		Expect(rec.take()).NotTo(BeEmpty(), "wall-clock time is far from the fake's clock")
		fraction := httpexpect.NewValue(rec, float64(fake.clockNow)+0.6287155)
		ExpectTimeNow(fraction)
		Expect(rec.take()).To(BeEmpty(), "a number may have a fraction")
		ExpectTimestampNow(fraction)
		Expect(rec.take()).NotTo(BeEmpty(), "an integer timestamp may not")
		ExpectTimeNow(httpexpect.NewValue(rec, float64(time.Now().Unix())+0.5))
		Expect(rec.take()).NotTo(BeEmpty(), "wall-clock time is far from the fake's clock")

		delete(tgt.Capabilities, "clock")
		Expect(tgt.Now()).To(BeTemporally("~", time.Now(), time.Second))
	})

	It("reports the report directory", func() {
		Expect(tgt.ReportDir()).To(Equal("reports"))
		Expect((&Target{}).ReportDir()).To(Equal("reports"))
	})
})

var _ = Describe("gates", func() {
	tgt := &Target{FeatureLevel: 500, Features: map[string]bool{"push": true},
		Capabilities: map[string]bool{"config": true}}

	It("skips without a capability", func() {
		tgt.NeedCapability("config")
		tgt.NeedCapability("clock", "config", "journal")
		Fail("not skipped")
	})
	It("skips an unclaimed feature", func() {
		tgt.NeedFeature("push")
		tgt.NeedFeature("vcall")
		Fail("not skipped")
	})
	It("skips a feature level that is too low", func() {
		tgt.NeedLevel(500)
		tgt.NeedLevel(501)
		Fail("not skipped")
	})
	It("skips a feature level that is too high", func() {
		tgt.NeedLevelBelow(501)
		tgt.NeedLevelBelow(500)
		Fail("not skipped")
	})
	It("keeps prefixes the report relies on", func() {
		Expect(strings.HasPrefix("needs capability clock", NeedsCapabilityPrefix)).To(BeTrue())
		Expect(NotApplicablePrefix).To(HaveSuffix(":"))
	})
})

// connectToTestFake starts a test fake, connects a target to it and makes that target the
// current one for the spec.
func connectToTestFake() (*testFake, *Target) {
	GinkgoHelper()
	fake := newTestFake()
	tgt, err := Connect(connectCfg(fake.start(GinkgoT()).URL))
	Expect(err).NotTo(HaveOccurred())
	SetCurrent(tgt)
	DeferCleanup(func() { SetCurrent(nil) })
	return fake, tgt
}

var _ = Describe("the persistent cast", func() {
	It("gives each spec the next account of every pooled role, all of them in turn", func() {
		_, tgt := connectToTestFake()
		seen := map[int]bool{}
		for range castSlots[Member] {
			tgt.NextCast()
			Expect(tgt.Users[Member].Role).To(Equal(Member))
			seen[tgt.Users[Member].ID] = true
			Expect(tgt.Users[Owner].Email).To(Equal(fakeOwnerEmail), "the owner is never pooled")
		}
		Expect(seen).To(HaveLen(castSlots[Member]))
	})
})
