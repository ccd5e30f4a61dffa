// Package footprint measures what a suite run leaves on its target (docs/footprint.md): it
// runs the whole suite twice in a row against one fake, as a server implementer runs it against
// a shared server, and compares the fake's state before and after each run.
package footprint

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// The stated bounds (docs/footprint.md).
const (
	// maxNewActiveUsers is how many active users (humans and bots) the first run on a realm
	// may add: the persistent cast (7 administrators, moderators, members and guests), the 10
	// staff administrators and the 16 crowd members. Later runs add none.
	maxNewActiveUsers = 4*7 + 10 + 16
	// maxNewActiveChannels is how many active channels any run may add.
	maxNewActiveChannels = 0
	// rateLimitPerRun is the real server's limit per user and minute: no account but the
	// configured owner needs more in a whole run, so none is ever limited.
	rateLimitPerRun = 200
	// maxOwnerRequests bounds the configured owner's requests in a run. It alone may create
	// users (can_create_users), and the run's fresh users alone take it near the limit
	// (docs/footprint.md); everything else an administrator may do goes to the staff.
	maxOwnerRequests = 560
)

func TestFootprintOfTwoRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite twice")
	}
	srv := fakeserver.New()
	m := &meter{}
	ts := httptest.NewServer(m.wrap(srv))
	defer ts.Close()
	defer srv.Close()

	before := srv.Footprint()
	runSuite(t, ts.URL, 1)
	first, firstRequests := srv.Footprint(), m.take()
	runSuite(t, ts.URL, 2)
	second, secondRequests := srv.Footprint(), m.take()

	t.Logf("state before: %s", describe(before))
	t.Logf("after run 1:  %s", describe(first))
	t.Logf("after run 2:  %s", describe(second))
	t.Logf("run 1 requests: %s", firstRequests)
	t.Logf("run 2 requests: %s", secondRequests)

	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	for _, run := range []struct {
		name          string
		from, to      fakeserver.Footprint
		maxNewUsers   int
		requestsOfRun requests
	}{
		{"run 1", before, first, maxNewActiveUsers, firstRequests},
		{"run 2, on the cast of run 1", first, second, 0, secondRequests},
	} {
		if n := active(run.to) - active(run.from); n > run.maxNewUsers {
			t.Errorf("%s added %d active users, more than the stated %d", run.name, n, run.maxNewUsers)
		}
		if n := run.to.ActiveChannels - run.from.ActiveChannels; n > maxNewActiveChannels {
			t.Errorf("%s added %d active channels, more than the stated %d", run.name, n, maxNewActiveChannels)
		}
		if a, b := run.from.Subscriptions[owner.ID], run.to.Subscriptions[owner.ID]; b > a {
			t.Errorf("%s left the owner subscribed to %d more channels", run.name, b-a)
		}
		// Realm-wide objects the specs make are removed (groups deactivated) when they end.
		for _, c := range []struct {
			what     string
			from, to int
		}{
			{"active user groups", run.from.ActiveUserGroups, run.to.ActiveUserGroups},
			{"custom profile fields", run.from.ProfileFields, run.to.ProfileFields},
			{"linkifiers", run.from.Linkifiers, run.to.Linkifiers},
			{"code playgrounds", run.from.Playgrounds, run.to.Playgrounds},
		} {
			if c.to > c.from {
				t.Errorf("%s left %d more %s", run.name, c.to-c.from, c.what)
			}
		}
		for user, times := range run.requestsOfRun {
			if user != "" && user != owner.Email && len(times) > rateLimitPerRun {
				t.Errorf("%s: %s sent %d requests, more than the real server allows in a minute (%d)",
					run.name, user, len(times), rateLimitPerRun)
			}
		}
		if n := len(run.requestsOfRun[owner.Email]); n > maxOwnerRequests {
			t.Errorf("%s: the owner %s sent %d requests, more than the stated %d", run.name, owner.Email, n, maxOwnerRequests)
		}
	}
}

// active counts active users, humans and bots.
func active(f fakeserver.Footprint) int { return f.ActiveHumans + f.ActiveBots }

// describe is one line of counts.
func describe(f fakeserver.Footprint) string {
	owner := 0
	if o, ok := fixtures.Default().UserByRole(fixtures.RoleOwner); ok {
		owner = f.Subscriptions[o.ID]
	}
	return fmt.Sprintf("%d active humans, %d active bots, %d deactivated users, %d active channels, %d archived channels, owner subscribed to %d, %d messages, %d user groups, %d profile fields, %d linkifiers, %d playgrounds",
		f.ActiveHumans, f.ActiveBots, f.DeactivatedUsers, f.ActiveChannels, f.ArchivedChannels, owner, f.Messages,
		f.ActiveUserGroups, f.ProfileFields, f.Linkifiers, f.Playgrounds)
}

// runSuite runs the whole suite against url, as a server implementer runs it against a server,
// and fails the test when the suite fails.
func runSuite(t *testing.T, url string, n int) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readSources(t, root)
	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	reports := t.TempDir()
	cmd := exec.CommandContext(ctx, "go", "tool", "ginkgo", "--procs=4", "--randomize-all", "./specs")
	cmd.Dir = root
	cmd.Env = append(withoutSettings(os.Environ()),
		"CHATCONFORM_URL="+url,
		"CHATCONFORM_OWNER_EMAIL="+owner.Email,
		"CHATCONFORM_OWNER_API_KEY="+owner.APIKey,
		"CHATCONFORM_REPORT_DIR="+reports,
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("suite run %d: %v\n%s", n, err, tail(string(out), 6000))
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "rate limited") || strings.Contains(line, "chatconform:") {
			t.Logf("run %d: %s", n, strings.TrimSpace(line))
		}
	}
}

// readSources reads every Go source and module file of the repository: the go command keys
// its cache of this test's result on the files the test opened, and the suite it runs as
// another process depends on all of them.
func readSources(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "reports" || d.Name() == "bin"):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".yaml") || d.Name() == "go.mod" || d.Name() == "go.sum"):
			_, err = os.ReadFile(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// withoutSettings drops the chatconform settings of the caller's environment: only the
// settings above count.
func withoutSettings(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "CHATCONFORM_") })
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// meter records when each user sent each API request.
type meter struct {
	mu    sync.Mutex
	times map[string][]time.Time // by HTTP Basic username; "" for requests without credentials
}

func (m *meter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/v1/") {
			user := basicUser(r)
			m.mu.Lock()
			if m.times == nil {
				m.times = map[string][]time.Time{}
			}
			m.times[user] = append(m.times[user], time.Now())
			m.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// basicUser is the username of the request's HTTP Basic credentials, "" without any.
func basicUser(r *http.Request) string {
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Basic ")
	if !ok {
		return ""
	}
	raw, err := base64.StdEncoding.DecodeString(auth)
	if err != nil {
		return ""
	}
	user, _, _ := strings.Cut(string(raw), ":")
	return user
}

// take returns the requests recorded since the last take and forgets them.
func (m *meter) take() requests {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := requests{}
	for user, ts := range m.times {
		out[user] = ts
	}
	m.times = nil
	return out
}

// requests are the times of each user's requests.
type requests map[string][]time.Time

func (r requests) total() int {
	n := 0
	for _, ts := range r {
		n += len(ts)
	}
	return n
}

// perMinute is the most requests the user sent within any 60 seconds.
func perMinute(ts []time.Time) int {
	sorted := slices.Clone(ts)
	slices.SortFunc(sorted, func(a, b time.Time) int { return a.Compare(b) })
	most, lo := 0, 0
	for hi := range sorted {
		for sorted[hi].Sub(sorted[lo]) >= time.Minute {
			lo++
		}
		most = max(most, hi-lo+1)
	}
	return most
}

// String lists the total and the busiest users.
func (r requests) String() string {
	users := make([]string, 0, len(r))
	for u := range r {
		users = append(users, u)
	}
	sort.Slice(users, func(i, j int) bool { return len(r[users[i]]) > len(r[users[j]]) })
	var b strings.Builder
	fmt.Fprintf(&b, "%d requests from %d users; busiest:", r.total(), len(r))
	for i, u := range users {
		if i == 12 {
			break
		}
		name := u
		if name == "" {
			name = "(no credentials)"
		}
		fmt.Fprintf(&b, " %s %d (%d/min)", name, len(r[u]), perMinute(r[u]))
	}
	return b.String()
}
