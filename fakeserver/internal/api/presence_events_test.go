package api_test

// When a presence report is announced with a presence event: a user's first report, and an
// active report of a user who has been inactive long enough to be shown offline; from level
// 178 measured from the last stored active time, before from the client's last report.

import (
	"fmt"
	"net/http"
	"testing"
)

// presenceStep is one report, after the clock has moved on by advance seconds.
type presenceStep struct {
	advance  int
	status   string
	announce bool
}

func TestPresenceEventsFollowTheRealRule(t *testing.T) {
	const member = 4
	type tc struct {
		name   string
		levels []int
		steps  []presenceStep
	}
	modern, legacy := []int{178, 263, 500}, []int{177}
	both := append(append([]int{}, legacy...), modern...)
	tests := []tc{
		{"a first report of active", both, []presenceStep{{0, "active", true}}},
		{"a first report of idle", both, []presenceStep{{0, "idle", true}}},
		{"active again 69 s later", both, []presenceStep{{0, "active", true}, {69, "active", false}}},
		{"active again 70 s later", both, []presenceStep{{0, "active", true}, {70, "active", false}}},
		{"active again 71 s later", both, []presenceStep{{0, "active", true}, {71, "active", true}}},
		{"idle long after active", both, []presenceStep{{0, "active", true}, {500, "idle", false}}},
		{"idle again long after idle", both, []presenceStep{{0, "idle", true}, {500, "idle", false}}},
		{"active 1 s after idle of a user never active", both, []presenceStep{{0, "idle", true}, {1, "active", true}}},
		{"active after idle over 70 s after active", both, []presenceStep{{0, "active", true}, {71, "idle", false}, {1, "active", true}}},
		// The idle report 30 s after an active one: from 178 the last active time decides;
		// before, the idle report was not stored, so the client was still active.
		{"active soon after a brief idle", both, []presenceStep{{0, "active", true}, {30, "idle", false}, {10, "active", false}}},
		// A report within 55 s of the stored active time stores nothing: from 178 the active
		// time stays the first report's; before, the client's report time moved on.
		{"active 71 s after the active time, 21 s after the last report (from 178)", modern,
			[]presenceStep{{0, "active", true}, {50, "active", false}, {21, "active", true}}},
		{"active 71 s after the active time, 21 s after the last report (before 178)", legacy,
			[]presenceStep{{0, "active", true}, {50, "active", false}, {21, "active", false}}},
	}
	for _, tt := range tests {
		for _, level := range tt.levels {
			t.Run(fmt.Sprintf("%s at %d", tt.name, level), func(t *testing.T) {
				ts := newServerAt(t, level)
				queue := evRegister(t, ts.URL, ownerAuth, "event_types", `["presence"]`)
				last := -1
				for i, step := range tt.steps {
					if step.advance > 0 {
						requireSuccess(t, "advance", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/clock",
							body: formBody("advance", fmt.Sprint(step.advance)), contentType: formType}))
					}
					requireSuccess(t, "report", post(t, ts.URL, memberAuth, "/api/v1/users/me/presence", "status", step.status))
					announced := 0
					for _, ev := range evPoll(t, ts.URL, ownerAuth, queue, last, true) {
						last = int(ev["id"].(float64))
						if ev["type"] == "presence" && ev["user_id"] == float64(member) {
							announced++
						}
					}
					if want := map[bool]int{true: 1, false: 0}[step.announce]; announced != want {
						t.Errorf("report %d (%s, %d s on): %d presence events, want %d", i+1, step.status, step.advance, announced, want)
					}
				}
			})
		}
	}
}
