package specs

import (
	"maps"
	"slices"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/gomega/types"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// expectModernPresences asserts that presences is in the modern format, key and value: every
// key a user ID (the legacy format's are emails), every value an entry with active_timestamp
// and idle_timestamp and none of the legacy format's (aggregated, per-client objects). A map
// keyed by user ID that holds legacy entries is neither format.
func expectModernPresences(presences map[string]any) {
	GinkgoHelper()
	harness.EachEntry(presences, "presences", func(key string, value any) {
		_, err := strconv.Atoi(key)
		Expect(err).NotTo(HaveOccurred(), "key %q is a user ID", key)
		entry, ok := value.(map[string]any)
		Expect(ok).To(BeTrue(), "the entry of %s is an object: %v", key, value)
		Expect(entry).To(And(HaveKey("active_timestamp"), HaveKey("idle_timestamp")), "the modern entry of %s", key)
		Expect(entry).NotTo(HaveKey("aggregated"), "the entry of %s is in the legacy format", key)
		for field, v := range entry {
			_, isObject := v.(map[string]any)
			Expect(isObject).To(BeFalse(), "the entry of %s has a legacy per-client object %q", key, field)
		}
	})
}

var _ = Describe("Operation 4: update your presence (POST /users/me/presence)", func() {
	var (
		t *harness.Target
		u harness.User
	)
	BeforeEach(func() {
		t = harness.Current()
		u = t.Spare(harness.Member)
	})

	DescribeTable("refuses a missing or unknown status",
		func(kv ...any) { harness.Fails(ops.UpdatePresence(u, kv...)) },
		Entry("no status", harness.Req("OP04-01")),
		Entry("status away", harness.Req("OP04-01"), "status", "away"),
		Entry("status ACTIVE", harness.Req("OP04-01"), "status", "ACTIVE"),
	)

	DescribeTable("answers presences in the legacy format without last_update_id and slim_presence",
		func(check func(entry *httpexpect.Object)) {
			resp := harness.Success(ops.UpdatePresence(u, "status", "active"))
			check(ops.OwnEntry(resp.Value("presences").Object(), u))
		},
		Entry("keyed by the user's email, with aggregated and one entry per client", harness.Req("OP04-08", "RES-20"), func(entry *httpexpect.Object) {
			entry.ContainsKey("aggregated")
			Expect(len(entry.Keys().Raw())).To(BeNumerically(">=", 2), "aggregated and one entry per client")
		}),
		Entry("each entry with its client, status and timestamp", harness.Req("RES-21"), func(entry *httpexpect.Object) {
			harness.EachField(entry, "the requester's legacy entry", func(_ string, v *httpexpect.Value) {
				e := v.Object()
				e.Value("client").String()
				e.Value("status").String().InList("active", "idle")
				e.Value("timestamp").Number().IsInt()
			})
		}),
		Entry("each per-client entry with pushable", harness.Req("RES-22"), func(entry *httpexpect.Object) {
			clients := slices.DeleteFunc(slices.Sorted(maps.Keys(entry.Raw())), func(key string) bool { return key == "aggregated" })
			harness.Each(clients, "the requester's per-client entries", func(client string) {
				entry.Value(client).Object().Value("pushable").Boolean()
			})
		}),
	)

	DescribeTable("answers presences in the modern format when slim_presence is true",
		func(check func(presences map[string]any)) {
			presences := ops.Presences(u, "status", "active", "slim_presence", true)
			Expect(presences).To(HaveKey(strconv.Itoa(u.ID)))
			check(presences)
		},
		Entry("keyed by user ID, with modern entries", harness.Req("OP04-07", "VER-07"), expectModernPresences),
		Entry("each with an integer active_timestamp and idle_timestamp", harness.Req("RES-19"), func(presences map[string]any) {
			harness.EachEntry(presences, "presences", func(_ string, value any) {
				entry := httpexpect.NewValue(GinkgoT(), value).Object()
				entry.Value("active_timestamp").Number().IsInt()
				entry.Value("idle_timestamp").Number().IsInt()
			})
			// Values, not only types: the requester was active just now, in UNIX seconds.
			own := httpexpect.NewValue(GinkgoT(), presences[strconv.Itoa(u.ID)]).Object()
			harness.ExpectTimestampNow(own.Value("active_timestamp"))
			harness.ExpectTimestampNow(own.Value("idle_timestamp"))
		}),
	)

	// Deprecated, still a parameter of the operation: honoured, so never listed as ignored.
	It("does not list slim_presence among the ignored parameters", harness.Req("VER-07", "CONV-10"), func() {
		resp := harness.Success(ops.UpdatePresence(u, "status", "active", "slim_presence", true))
		if resp.Raw()["ignored_parameters_unsupported"] != nil {
			Expect(resp.Value("ignored_parameters_unsupported").Array().Raw()).NotTo(ContainElement("slim_presence"))
		}
	})

	It("with last_update_id -1 returns all presence data in the modern format",
		harness.Req("OP04-02", "OP04-03", "VER-24"), func() {
			other := t.Spare(harness.Member)
			harness.Success(ops.UpdatePresence(other, "status", "idle"))
			presences := ops.Presences(u, "status", "active", "last_update_id", -1)
			Expect(presences).To(HaveKey(strconv.Itoa(other.ID)))
			Expect(presences).To(HaveKey(strconv.Itoa(u.ID)))
			expectModernPresences(presences)
		})

	It("answers a presence_last_update_id never below the last_update_id passed", harness.Req("OP04-09"), func() {
		_, first := ops.PresencesSince(u, "status", "active", "last_update_id", -1)
		Expect(first).To(BeNumerically(">=", -1))
		_, second := ops.PresencesSince(u, "status", "active", "last_update_id", first)
		Expect(second).To(BeNumerically(">=", first))
		ahead := second + 1000
		_, third := ops.PresencesSince(u, "status", "active", "last_update_id", ahead)
		Expect(third).To(BeNumerically(">=", ahead))
	})

	DescribeTable("with ping_only true answers neither server_timestamp nor presences",
		func(kv ...any) {
			resp := harness.Success(ops.UpdatePresence(u, append([]any{"status", "active", "ping_only", true}, kv...)...))
			resp.NotContainsKey("server_timestamp")
			resp.NotContainsKey("presences")
			// The document lists presence_last_update_id in every answer; the real server leaves
			// it out of ping_only answers: both pass, and the report says which this target does.
			_, listed := resp.Raw()["presence_last_update_id"]
			harness.Info("presence_last_update_id in a ping_only answer", "present: %t", listed)
		},
		Entry("legacy", harness.Req("OP04-05")),
		Entry("with last_update_id", harness.Req("OP04-05"), "last_update_id", -1),
	)

	// Where a ping_only answer gives presence_last_update_id, it is the value the document
	// gives an answer that returned no data: -1 when none was passed, at least the one passed.
	DescribeTable("with ping_only true gives presence_last_update_id, where it gives one, as for an answer without data",
		func(kv []any, want types.GomegaMatcher) {
			resp := harness.Success(ops.UpdatePresence(u, append([]any{"status", "active", "ping_only", true}, kv...)...))
			if _, listed := resp.Raw()["presence_last_update_id"]; !listed {
				harness.Info("presence_last_update_id in a ping_only answer", "absent, as on the real server")
				return
			}
			Expect(resp.Value("presence_last_update_id").Number().IsInt().Raw()).To(want)
		},
		Entry("-1 when no last_update_id was passed", harness.Req("OP04-11"), nil, BeNumerically("==", -1)),
		Entry("at least the last_update_id passed", harness.Req("OP04-09"), []any{"last_update_id", 5}, BeNumerically(">=", 5)),
	)

	It("defaults ping_only to false", harness.Req("OP04-05", "OP04-12"), func() {
		resp := harness.Success(ops.UpdatePresence(u, "status", "idle"))
		harness.ExpectTimeNow(resp.Value("server_timestamp")) // a number: the real server sends a fraction
		resp.Value("presences").Object()
	})

	DescribeTable("accepts new_user_input as a boolean",
		func(value bool) { harness.Success(ops.UpdatePresence(u, "status", "active", "new_user_input", value)) },
		Entry("true", harness.Req("OP04-06"), true),
		Entry("false", harness.Req("OP04-06"), false),
	)

	It("accepts history_limit_days as an integer", harness.Req("OP04-04"), func() {
		presences := ops.Presences(u, "status", "active", "slim_presence", true, "history_limit_days", 30)
		Expect(presences).To(HaveKey(strconv.Itoa(u.ID)))
	})
})

// These specs need a realm where no one else updates presence meanwhile, or move the shared
// clock: they run alone.
var _ = Describe("Operation 4: update your presence, over time", Serial, func() {
	var (
		t *harness.Target
		u harness.User
	)
	const day = 24 * time.Hour
	BeforeEach(func() {
		t = harness.Current()
		u = ops.QuietMember(t)
	})

	// The status is read from the modern format's timestamps, not the legacy "status": the real
	// server shows a user active in the legacy format while their last active time is at most
	// 70 s older than their last report, and for a user never active that time is when they
	// joined, so a brand-new user's idle reads "active" there. In the modern format idle shows
	// as an idle time later than the active time, once the target's clock has moved past the
	// second the user joined in (the clock is moved where it can be, else the spec waits).
	DescribeTable("takes status active or idle and becomes that status",
		func(status string) {
			t.LetTimePass(2 * time.Second)
			presences := ops.Presences(u, "status", status, "slim_presence", true)
			Expect(presences).To(HaveKey(strconv.Itoa(u.ID)))
			entry := httpexpect.NewValue(GinkgoT(), presences[strconv.Itoa(u.ID)]).Object()
			idle := entry.Value("idle_timestamp").Number().IsInt().Raw()
			active, _ := entry.Raw()["active_timestamp"].(float64) // null or absent: never active
			if status == "active" {
				Expect(active).To(BeNumerically(">=", idle), "active: the last active time is the last report's")
			} else {
				Expect(active).To(BeNumerically("<", idle), "idle: the last report is later than the last active time")
			}
		},
		Entry("active", harness.Req("STATE-09"), "active"),
		Entry("idle", harness.Req("STATE-09"), "idle"),
	)

	// ping_only leaves presence data out of the answer, not the status out of the state: read
	// back through another user, whose request does not report the user's status itself. The
	// quiet member may have reported earlier in the run, so an entry alone proves nothing: its
	// last active time must be this report's (on a clock the spec controls; a user new to a
	// server without one has no earlier entry).
	It("records the status sent with ping_only true, as another user's presence data shows", harness.Req("STATE-09"), func() {
		reported := t.Now().Unix()
		harness.Success(ops.UpdatePresence(u, "status", "active", "ping_only", true))
		presences := ops.Presences(t.User(harness.Admin), "status", "active", "slim_presence", true)
		Expect(presences).To(HaveKey(strconv.Itoa(u.ID)), "the status reported with ping_only is not recorded")
		if t.Capabilities["clock"] {
			entry := httpexpect.NewValue(GinkgoT(), presences[strconv.Itoa(u.ID)]).Object()
			active, _ := entry.Raw()["active_timestamp"].(float64)
			Expect(int64(active)).To(BeNumerically(">=", reported), "the last active time is an earlier report's, not the ping_only report's")
		}
	})

	// Values, not only keys: 70 s after the last active report (the legacy format's margin)
	// an idle report reads idle.
	It("shows a user idle since their last active report as idle in the legacy format", harness.Req("RES-21"), func() {
		t.NeedCapability("clock")
		harness.Success(ops.UpdatePresence(u, "status", "active"))
		t.PassTime(2 * time.Minute)
		resp := harness.Success(ops.UpdatePresence(u, "status", "idle"))
		ops.OwnEntry(resp.Value("presences").Object(), u).Value("aggregated").Object().Value("status").String().IsEqual("idle")
	})

	It("answers presence_last_update_id equal to the one passed exactly when there are no updates", harness.Req("OP04-10"), func() {
		_, first := ops.PresencesSince(u, "status", "active", "last_update_id", -1)
		presences, second := ops.PresencesSince(u, "status", "active", "last_update_id", first)
		Expect(second).To(BeNumerically(">=", first))
		if second == first {
			Expect(presences).To(BeEmpty(), "an unchanged presence_last_update_id means no updates")
		} else {
			Expect(presences).NotTo(BeEmpty(), "a new presence_last_update_id comes with updates")
		}

		other := ops.QuietMember(t)
		harness.Success(ops.UpdatePresence(other, "status", "active"))
		presences, third := ops.PresencesSince(u, "status", "active", "last_update_id", second)
		Expect(third).To(BeNumerically(">", second), "another user's new presence is an update")
		Expect(presences).To(HaveKey(strconv.Itoa(other.ID)))
	})

	It("answers presence_last_update_id -1 when none was passed and no data was returned", harness.Req("OP04-11"), func() {
		t.NeedCapability("clock")
		// Presence disabled hides u's own; the default history (LIMIT-08: history_limit_days
		// comes at a later level than this rule) after fifteen quiet days holds no one else.
		harness.Success(ops.UpdateSettings(u, "presence_enabled", false))
		t.PassTime(15 * day)
		presences, last := ops.PresencesSince(u, "status", "active", "slim_presence", true)
		Expect(presences).To(BeEmpty())
		Expect(last).To(Equal(-1))
	})

	// slim_presence, not last_update_id (level 263): the default holds at every level. Half a
	// day either side of 14 days: a default of 13 or 15 days fails, the exact edge is not shown.
	It("keeps history_limit_days at 14 days by default", harness.Req("LIMIT-08"), func() {
		t.NeedCapability("clock")
		old := ops.QuietMember(t)
		harness.Success(ops.UpdatePresence(old, "status", "active"))
		t.PassTime(13*day + 12*time.Hour)
		presences := ops.Presences(u, "status", "active", "slim_presence", true)
		Expect(presences).To(HaveKey(strconv.Itoa(old.ID)), "13.5 days old is within the default history")
		t.PassTime(day)
		presences = ops.Presences(u, "status", "active", "slim_presence", true)
		Expect(presences).NotTo(HaveKey(strconv.Itoa(old.ID)), "14.5 days old is beyond the default history")
	})

	It("reaches further back with a longer history_limit_days", harness.Req("OP04-04"), func() {
		t.NeedCapability("clock")
		old := ops.QuietMember(t)
		harness.Success(ops.UpdatePresence(old, "status", "active"))
		t.PassTime(15 * day)
		presences := ops.Presences(u, "status", "active", "slim_presence", true, "history_limit_days", 30)
		Expect(presences).To(HaveKey(strconv.Itoa(old.ID)), "15 days old is within a history of 30 days")
	})

	It("ignores history_limit_days when last_update_id is greater than 0", harness.Req("LIMIT-09"), func() {
		t.NeedCapability("clock")
		_, since := ops.PresencesSince(u, "status", "active", "last_update_id", -1)
		Expect(since).To(BeNumerically(">", 0))
		old := ops.QuietMember(t)
		harness.Success(ops.UpdatePresence(old, "status", "active"))
		t.PassTime(2 * day)
		presences := ops.Presences(u, "status", "active", "last_update_id", since, "history_limit_days", 1)
		Expect(presences).To(HaveKey(strconv.Itoa(old.ID)), "the update since last_update_id, however old")
		presences = ops.Presences(u, "status", "active", "last_update_id", -1, "history_limit_days", 1)
		Expect(presences).NotTo(HaveKey(strconv.Itoa(old.ID)), "without a positive last_update_id the limit applies")
	})
})
