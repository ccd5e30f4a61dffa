package api_test

// Abuse within the documented bounds: each case drives one bound as hard as a client may, in a
// loop bounded in count and time on loopback, and the live heap the fake keeps afterwards must
// stay under the figure docs/bounds.md gives for it.

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
)

// liveHeap is the process's live heap after a full collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC() // the first cycle's finalizers may free more
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func TestAbuseStaysWithinBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy, and a measure of memory that the race detector distorts: make unit runs it")
	}
	cases := []struct {
		name string
		// limit is the most live heap the abuse may leave behind: the documented figure with
		// room for the test's own allocations.
		limit uint64
		abuse func(t *testing.T, base string)
	}{
		{
			// 1,000 unauthenticated requests with huge headers and query strings: each journal
			// entry keeps 1 KB of each, and nothing of the rest (1 MB in all by default).
			name: "journal", limit: 8 << 20,
			abuse: func(t *testing.T, base string) {
				query := "q=" + strings.Repeat("q", 20_000)
				spec := strings.Repeat("s", 40_000)
				for i := range 1000 {
					res := do(t, base, request{method: http.MethodGet, path: "/api/v1/users/me", query: query,
						headers: map[string]string{fakeserver.SpecHeader: fmt.Sprint(i, spec)}})
					if res.status != http.StatusUnauthorized {
						t.Fatalf("request %d: %d %s", i, res.status, res)
					}
				}
			},
		},
		{
			// A member's 60 bots, each storing 1 MB and deactivated to make room for the next:
			// their owner's bots hold at most 32 MB (the default quota) in all.
			name: "bot storage", limit: 40 << 20,
			abuse: func(t *testing.T, base string) {
				value := strings.Repeat("v", 1<<20)
				stored := 0
				for i := range 60 {
					id, auth := storageBot(t, base, memberAuth, fmt.Sprint("abuse", i))
					if putStorage(t, base, auth, "k", value).status == http.StatusOK {
						stored++
					}
					requireSuccess(t, "deactivate", do(t, base, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/bots/%d", id), auth: memberAuth}))
				}
				t.Logf("%d of 60 bots stored 1 MB", stored)
			},
		},
		{
			// A member's 1,000 queues, registered in 200 kinds that each get their own form
			// of a message, none of them polled, while 100 direct messages reach the member:
			// all of the member's queues hold at most 50,000 events.
			name: "event queues", limit: 64 << 20,
			abuse: func(t *testing.T, base string) {
				for i := range 1000 {
					kind := i % 200
					narrow := strings.TrimSuffix(strings.Repeat(`["is","dm"],`, kind/8+1), ",")
					requireSuccess(t, "queue", get(t, base, memberAuth, "/api/v1/events", fmt.Sprintf(
						"dont_block=true&apply_markdown=%t&client_gravatar=%t&slim_presence=%t&narrow=%s",
						kind&1 == 1, kind&2 == 2, kind&4 == 4, url.QueryEscape("["+narrow+"]"))))
				}
				member, _ := defaultFixture.UserByRole("member")
				for i := range 100 {
					evSendDirect(t, base, ownerAuth, member.ID, fmt.Sprint("message ", i, " ", strings.Repeat("x", 1000)))
				}
			},
		},
		{
			// An administrator's 3,000 channel folders with the longest description taken, and
			// a member's 3,000 navigation views with 990-character fragments and names and 200
			// with 50,000-character ones: 1,000 of each are kept, none of the long views.
			name: "channel folders and navigation views", limit: 8 << 20,
			abuse: func(t *testing.T, base string) {
				description := strings.Repeat("d", 1024)
				text, long := strings.Repeat("v", 990), strings.Repeat("w", 50_000)
				for i := range 3000 {
					post(t, base, adminAuth, "/api/v1/channel_folders/create", "name", fmt.Sprint("Folder ", i), "description", description)
					post(t, base, memberAuth, "/api/v1/navigation_views", "fragment", fmt.Sprint(i, text), "is_pinned", "true", "name", fmt.Sprint(i, text))
				}
				for i := range 200 {
					post(t, base, memberAuth, "/api/v1/navigation_views", "fragment", fmt.Sprint(i, long), "is_pinned", "true", "name", fmt.Sprint(i, long))
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := newServer(t)
			before := liveHeap()
			start := time.Now()
			c.abuse(t, ts.URL)
			took := time.Since(start)
			after := liveHeap()
			runtime.KeepAlive(ts)
			grown := int64(after) - int64(before)
			t.Logf("in %v, live heap grew by %.1f MB (limit %.1f MB)", took.Round(time.Millisecond), float64(grown)/(1<<20), float64(c.limit)/(1<<20))
			if grown > int64(c.limit) {
				t.Errorf("the fake keeps %.1f MB more live heap after the abuse, want at most %.1f MB", float64(grown)/(1<<20), float64(c.limit)/(1<<20))
			}
		})
	}
}
