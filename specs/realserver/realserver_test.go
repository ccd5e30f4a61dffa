// Package realserver_test runs the conformance suite against the fake behind a test double
// that behaves as the real server of this API family does where the document leaves room,
// while another client is busy on the same server. It proves that none of those behaviours
// fails a spec, so that a right server is never failed:
//
//   - every JSON reply, every event, the message and user objects in them and every object in
//     an array carry a field the document does not name, and every batch of events ends with an
//     event of a type the suite does not know;
//   - the fields the real server sends in a form of its own are sent in that form (the
//     reference page on the real server, and its source where the page names it): presence's
//     server_timestamp is a number with a fraction of a second, in the update reply, in the
//     registration state and in GET /realm/presence; a ping_only presence reply has no
//     presence_last_update_id; realm settings are announced as update_dict exactly for the
//     settings the real server announces so (allow_message_editing,
//     message_content_edit_limit_seconds, the group settings) and as op "update" with
//     property and value for the others (the move time limits), which the fake does itself;
//   - the target's clock runs at the speed of the runner's (the double moves the fake's virtual
//     clock on with the wall clock), so presence behaves as on the real server, whose legacy
//     format shows a brand-new user's idle as active for 70 s (the fake does that itself);
//   - no presence events at all, in a realm that reports more than 100 active users to the
//     specs that wait for a presence event (the real server stops sending them above that
//     size): those specs must be skipped with that reason, not failed;
//   - no clock capability, and a clock far from the runner's (the fake's virtual clock starts
//     at its fixture's start time): timestamps must be compared with the target's clock;
//   - a background client creates channels, sends, edits and reacts in a loop all along.
package realserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs"
)

// extraField is the field the double adds; its value is an object, the least convenient kind.
const extraField = "chatconform_undocumented"

var extraValue = map[string]any{"harmless": true}

// unknownEventType is the type of the event the double appends to every batch of events.
const unknownEventType = "chatconform_unknown_kind"

// presenceSpecs name the specs that wait for a presence event, which alone see a realm above
// 100 users.
var presenceSpecs = []string{
	"tells clients at once when a user comes online",
	"keeps the real address out of the presence events of a viewer the visibility excludes",
}

// double wraps the fake's handler and rewrites its JSON replies as described above.
type double struct {
	next http.Handler

	mu      sync.Mutex
	start   time.Time
	elapsed int64 // seconds the fake's clock has been moved on since start
}

// tick moves the fake's virtual clock on by the whole seconds of wall time since the last tick.
func (d *double) tick() {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := int64(time.Since(d.start) / time.Second)
	if now <= d.elapsed {
		return
	}
	req := httptest.NewRequest(http.MethodPost, "/_fake/clock", strings.NewReader(url.Values{"advance": {strconv.FormatInt(now-d.elapsed, 10)}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// What the fake's control API asks of a local client: a Host naming this machine and a
	// header no cross-site form can send.
	req.Host = "127.0.0.1"
	req.Header.Set(fakeserver.SpecHeader, "real-server double")
	d.next.ServeHTTP(httptest.NewRecorder(), req)
	d.elapsed = now
}

func (d *double) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.tick()
	rec := httptest.NewRecorder()
	d.next.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if strings.HasPrefix(r.URL.Path, "/api/v1/") && strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		var obj map[string]any
		if json.Unmarshal(body, &obj) == nil && obj != nil {
			d.rewrite(r, obj)
			body, _ = json.Marshal(obj)
		}
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(rec.Code)
	_, _ = w.Write(body)
}

func (d *double) rewrite(r *http.Request, obj map[string]any) {
	path := strings.TrimPrefix(r.URL.Path, "/api/v1")
	if path == "/events" && r.Method == http.MethodGet {
		obj["events"] = rewriteEvents(obj["events"])
	}
	spec := r.Header.Get(harness.SpecHeader)
	if path == "/users" && r.Method == http.MethodGet && slices.ContainsFunc(presenceSpecs, func(name string) bool { return strings.Contains(spec, name) }) {
		members, _ := obj["members"].([]any)
		for i := range 101 {
			members = append(members, map[string]any{"user_id": 900_000 + i, "is_active": true, "is_bot": false,
				"full_name": fmt.Sprintf("Someone %d", i), "email": fmt.Sprintf("someone%d@elsewhere.example.test", i)})
		}
		obj["members"] = members
	}
	if path == "/users/me/presence" && r.Method == http.MethodPost && obj["result"] == "success" {
		if _, data := obj["presences"]; !data { // a ping_only reply
			delete(obj, "presence_last_update_id")
		}
	}
	withFraction(obj)
	addExtra(obj)
}

// serverTimeFraction is the fraction of a second the double adds to server_timestamp, as in the
// real server's own examples (1656958539.6287155): its time.time() is never a whole second.
const serverTimeFraction = 0.6287155

// withFraction gives a whole server_timestamp of obj the fraction of a second the real server's
// has.
func withFraction(obj map[string]any) {
	if ts, ok := obj["server_timestamp"].(float64); ok && ts == float64(int64(ts)) {
		obj["server_timestamp"] = ts + serverTimeFraction
	}
}

// addExtra adds the extra field to obj, to the message and user objects in it, and to every
// object that is an element of an array anywhere in it (objects keyed by ID or name, such as
// presences or bot storage, stay as they are: a key there is data, not a field).
func addExtra(obj map[string]any) {
	obj[extraField] = extraValue
	for _, key := range []string{"message", "user"} {
		if inner, ok := obj[key].(map[string]any); ok {
			inner[extraField] = extraValue
		}
	}
	for _, v := range obj {
		addToArrayElements(v)
	}
}

func addToArrayElements(v any) {
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			if inner, ok := item.(map[string]any); ok {
				addExtra(inner)
			} else {
				addToArrayElements(item)
			}
		}
	case map[string]any:
		for _, item := range v {
			addToArrayElements(item)
		}
	}
}

// rewriteEvents drops presence events, adds the extra field everywhere and ends a non-empty
// batch with an event of an unknown type (with the batch's last id, so last_event_id stays
// right).
func rewriteEvents(v any) any {
	list, _ := v.([]any)
	out := []any{}
	lastID := -1.0
	for _, item := range list {
		ev, ok := item.(map[string]any)
		if !ok {
			out = append(out, item)
			continue
		}
		if id, ok := ev["id"].(float64); ok {
			lastID = max(lastID, id)
		}
		if ev["type"] == "presence" {
			continue
		}
		addExtra(ev)
		out = append(out, ev)
	}
	if lastID >= 0 {
		out = append(out, map[string]any{"type": unknownEventType, "id": lastID, extraField: extraValue})
	}
	return out
}

// startDouble starts the fake behind the double; the test stops both.
func startDouble(t *testing.T) (*httptest.Server, *fixtures.Fixture) {
	fake := fakeserver.New()
	srv := httptest.NewServer(&double{next: fake, start: time.Now()})
	t.Cleanup(func() { srv.Close(); fake.Close() })
	return srv, fake.Fixture()
}

// busy acts as another user of the realm until ctx ends: it creates public channels, sends to
// them and to the fixture's channel, edits what it sent and reacts to it.
func busy(ctx context.Context, base string, u fixtures.User, done *sync.WaitGroup, count *int) {
	defer done.Done()
	client := &http.Client{Timeout: 5 * time.Second}
	call := func(method, path string, form url.Values) map[string]any {
		req, _ := http.NewRequestWithContext(ctx, method, base+"/api/v1"+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(u.Email, u.APIKey)
		resp, err := client.Do(req)
		if err != nil {
			return nil
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
	for i := 0; ctx.Err() == nil; i++ {
		name := fmt.Sprintf("busy-%d", i)
		call("POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"` + name + `"}]`}})
		for _, to := range []string{name, "general"} {
			sent := call("POST", "/messages", url.Values{"type": {"stream"}, "to": {to}, "topic": {"busy"}, "content": {"busy " + name}})
			if id, ok := sent["id"].(float64); ok {
				msg := "/messages/" + strconv.Itoa(int(id))
				call("PATCH", msg, url.Values{"content": {"edited " + name}})
				call("POST", msg+"/reactions", url.Values{"emoji_name": {"smile"}})
			}
		}
		*count = i + 1
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestSuiteAgainstRealServerBehaviour(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite")
	}
	srv, fx := startDouble(t)
	owner, _ := fx.UserByRole(fixtures.RoleOwner)
	member, _ := fx.UserByRole(fixtures.RoleMember)
	reports := t.TempDir()
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "CHATCONFORM_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	t.Setenv("CHATCONFORM_URL", srv.URL)
	t.Setenv("CHATCONFORM_OWNER_EMAIL", owner.Email)
	t.Setenv("CHATCONFORM_OWNER_API_KEY", owner.APIKey)
	t.Setenv("CHATCONFORM_REPORT_DIR", reports)
	// Every capability but the clock: the target's time is its own, far from the runner's.
	t.Setenv("CHATCONFORM_CAPABILITIES", "config,reset,fixture,journal,vcall-token,batch")

	ctx, stop := context.WithCancel(context.Background())
	var done sync.WaitGroup
	rounds := 0
	done.Add(1)
	go busy(ctx, srv.URL, member, &done, &rounds)

	RegisterFailHandler(harness.RedactingFail)
	passed := RunSpecs(t, specs.SuiteName+" against the real server's behaviour")
	stop()
	done.Wait()
	t.Logf("the background client made %d rounds of activity during the run", rounds)
	if rounds == 0 {
		t.Error("the background client never got a round done: the run proved nothing about others' activity")
	}
	if !passed {
		t.Fatal("the suite failed against the real server's behaviour")
	}

	raw, err := os.ReadFile(filepath.Join(reports, "conformance.json"))
	if err != nil {
		t.Fatal(err)
	}
	var conf struct {
		Target struct {
			Realm struct {
				ClockOffsetSeconds int64 `json:"clock_offset_seconds"`
			} `json:"realm"`
		} `json:"target"`
		Requirements []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
			Reason string `json:"reason"`
		} `json:"requirements"`
	}
	if err := json.Unmarshal(raw, &conf); err != nil {
		t.Fatal(err)
	}
	if off := conf.Target.Realm.ClockOffsetSeconds; off > -3600 && off < 3600 {
		t.Errorf("clock offset %d s: the fake's virtual clock should be far from the runner's, so the test proves nothing about skew", off)
	}
	statuses := map[string]int{}
	for _, r := range conf.Requirements {
		statuses[r.Status]++
		if r.ID == "EVENT-05" && (r.Status != "skipped" || !strings.Contains(r.Reason, "100")) {
			t.Errorf("EVENT-05 is %s (%q), want skipped for the realm's size", r.Status, r.Reason)
		}
	}
	t.Logf("requirements by status: %v", statuses)
	if statuses["failed"] > 0 {
		t.Errorf("%d requirements failed", statuses["failed"])
	}
}
