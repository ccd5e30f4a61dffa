// Package footprint measures what a suite run leaves on its target (docs/footprint.md): it
// runs the whole suite twice in a row against one fake, as a server implementer runs it against
// a shared server, and compares the fake's state before and after each run.
package footprint

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/internal/testctx"
)

// The stated bounds (docs/footprint.md).
const (
	// maxNewActiveUsers is how many active users (humans and bots) the first run on a realm
	// may add: the persistent cast (9 administrators and members, 7 moderators and guests), the 10
	// staff administrators, the 16 crowd members and the 20 spares. Later runs add none.
	maxNewActiveUsers = 9 + 9 + 7 + 7 + 10 + 16 + 20
	// maxUsersPerRun is how many users, active and deactivated, every run adds besides the
	// persistent accounts of the first: the users and bots made by the specs whose rule needs
	// one that never existed. A server never forgets a user, so this is what each further run
	// leaves behind for good. Measured 27 and 28 (the count varies between runs by one, for a
	// reason not found); the bound leaves 2 beyond the larger.
	maxUsersPerRun = 30
	// deactivatedAccounts is how many persistent deactivated accounts the first run adds: one
	// per parallel process (harness DeactivatedAccount), and runSuite runs four.
	deactivatedAccounts = 4
	// maxNewActiveChannels is how many active channels any run may add.
	maxNewActiveChannels = 0
	// rateLimitPerRun is the real server's limit per user and minute: no account, the owner
	// included, needs more in a whole run, so none is ever limited.
	rateLimitPerRun = 200
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
	firstRequests, firstRoutes, firstSpecs := m.take()
	first := srv.Footprint()
	runSuite(t, ts.URL, 2)
	secondRequests, secondRoutes, secondSpecs := m.take()
	second := srv.Footprint()

	t.Logf("state before: %s", describe(before))
	t.Logf("after run 1:  %s", describe(first))
	t.Logf("after run 2:  %s", describe(second))
	t.Logf("run 1 requests: %s", firstRequests)
	t.Logf("run 2 requests: %s", secondRequests)
	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	t.Logf("run 1, the owner's requests: %s", routeCounts(firstRoutes[owner.Email]))
	t.Logf("run 2, the owner's requests: %s", routeCounts(secondRoutes[owner.Email]))
	t.Logf("run 1, the owner's requests by spec: %s", routeCounts(firstSpecs[owner.Email]))
	t.Logf("run 2, the owner's requests by spec: %s", routeCounts(secondSpecs[owner.Email]))

	for _, run := range []struct {
		name                  string
		from, to              fakeserver.Footprint
		maxNewUsers           int
		persistentDeactivated int
		requestsOfRun         requests
	}{
		{"run 1", before, first, maxNewActiveUsers, deactivatedAccounts, firstRequests},
		{"run 2, on the cast of run 1", first, second, 0, 0, secondRequests},
	} {
		if n := active(run.to) - active(run.from); n > run.maxNewUsers {
			t.Errorf("%s added %d active users, more than the stated %d", run.name, n, run.maxNewUsers)
		}
		if n, most := users(run.to)-users(run.from), run.maxNewUsers+run.persistentDeactivated+maxUsersPerRun; n > most {
			t.Errorf("%s added %d users, active and deactivated, more than the stated %d", run.name, n, most)
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
			if user != "" && len(times) > rateLimitPerRun {
				t.Errorf("%s: %s sent %d requests, more than the real server allows in a minute (%d)",
					run.name, user, len(times), rateLimitPerRun)
			}
		}
		if len(run.requestsOfRun[owner.Email]) == 0 {
			t.Errorf("%s: no request of the owner %s was counted", run.name, owner.Email)
		}
	}
}

// active counts active users, humans and bots.
func active(f fakeserver.Footprint) int { return f.ActiveHumans + f.ActiveBots }

// users counts every user, active or deactivated.
func users(f fakeserver.Footprint) int { return active(f) + f.DeactivatedUsers }

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
	ctx := testctx.Context(t)
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
	// routes counts each user's requests by method and path, numbers replaced by {id}.
	routes map[string]map[string]int
	// specs counts each user's requests by the spec that sent them (harness.SpecHeader).
	specs map[string]map[string]int
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
			if m.routes == nil {
				m.routes = map[string]map[string]int{}
			}
			if m.routes[user] == nil {
				m.routes[user] = map[string]int{}
			}
			m.routes[user][r.Method+" "+digits.ReplaceAllString(r.URL.Path, "/{id}$1")]++
			if m.specs == nil {
				m.specs = map[string]map[string]int{}
			}
			if m.specs[user] == nil {
				m.specs[user] = map[string]int{}
			}
			m.specs[user][r.Header.Get(harness.SpecHeader)]++
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

// take returns the requests recorded since the last take, and their routes by user, and
// forgets them.
func (m *meter) take() (requests, map[string]map[string]int, map[string]map[string]int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := requests{}
	for user, ts := range m.times {
		out[user] = ts
	}
	routes, specs := m.routes, m.specs
	m.times, m.routes, m.specs = nil, nil, nil
	return out, routes, specs
}

// routeCounts lists routes by count, most first.
func routeCounts(routes map[string]int) string {
	keys := make([]string, 0, len(routes))
	for k := range routes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if routes[keys[i]] != routes[keys[j]] {
			return routes[keys[i]] > routes[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, routes[k])
	}
	return strings.Join(parts, ", ")
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

// digits are the numbers of a path (ids), for grouping requests by route.
var digits = regexp.MustCompile(`/[0-9]+(/|$)`)
