package api_test

// Event queues over HTTP: POST /register, GET /events (dont_block and long polls), DELETE
// /events, and the control settings of their timing.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
)

// register registers an event queue as the role's user and returns its id.
func evRegister(t *testing.T, base, auth string, kv ...string) string {
	t.Helper()
	env := requireSuccess(t, "register", post(t, base, auth, "/api/v1/register", kv...))
	id, _ := env["queue_id"].(string)
	if id == "" || env["last_event_id"] != float64(-1) {
		t.Fatalf("register: queue_id %v, last_event_id %v", env["queue_id"], env["last_event_id"])
	}
	return id
}

func evQuery(queueID string, last int, dontBlock bool) string {
	return url.Values{"queue_id": {queueID}, "last_event_id": {fmt.Sprint(last)}, "dont_block": {fmt.Sprint(dontBlock)}}.Encode()
}

// pollEvents is GET /events, returning the events of a success.
func evPoll(t *testing.T, base, auth, queueID string, last int, dontBlock bool) []map[string]any {
	t.Helper()
	env := requireSuccess(t, "GET /events", get(t, base, auth, "/api/v1/events", evQuery(queueID, last, dontBlock)))
	if id, ok := env["queue_id"]; ok {
		t.Errorf("queue_id %v in the answer of a fetch from an existing queue %s: the real server names only a queue the request made", id, queueID)
	}
	return evList(t, env)
}

func evList(t *testing.T, env map[string]any) []map[string]any {
	t.Helper()
	list, ok := env["events"].([]any)
	if !ok {
		t.Fatalf("events is not a list: %v", env["events"])
	}
	out := make([]map[string]any, len(list))
	for i, item := range list {
		ev, ok := item.(map[string]any)
		if !ok {
			t.Fatalf("event %d is not an object: %v", i, item)
		}
		out[i] = ev
	}
	return out
}

// asyncGet sends a request from another goroutine (no t.Fatal there) and delivers the
// decoded body, or an error.
type evResult struct {
	status int
	env    map[string]any
	err    error
}

// evAwaitWaiting returns once a long poll waits on the queue: what a sleep would guess.
func evAwaitWaiting(t *testing.T, ts *fakeserver.TestServer, queueID string) {
	t.Helper()
	for deadline := time.Now().Add(patience(t)); ; time.Sleep(2 * time.Millisecond) {
		for _, q := range ts.Server.Queues() {
			if q.ID == queueID && q.Waiting {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no long poll waits on queue %s", queueID)
		}
	}
}

func evAsyncGet(ctx context.Context, base, auth, path, query string) <-chan evResult {
	out := make(chan evResult, 1)
	go func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path+"?"+query, nil)
		if err != nil {
			out <- evResult{err: err}
			return
		}
		req.Header.Set("Authorization", auth)
		res, err := httpClient.Do(req)
		if err != nil {
			out <- evResult{err: err}
			return
		}
		defer res.Body.Close()
		data, err := io.ReadAll(res.Body)
		var env map[string]any
		if err == nil {
			err = json.Unmarshal(data, &env)
		}
		out <- evResult{status: res.StatusCode, env: env, err: err}
	}()
	return out
}

func evAwait(t *testing.T, ch <-chan evResult, within time.Duration) evResult {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("request failed: %v", r.err)
		}
		return r
	case <-time.After(within):
		t.Fatalf("no answer within %v", within)
		return evResult{}
	}
}

func evSendDirect(t *testing.T, base, auth string, to int, content string) {
	t.Helper()
	requireSuccess(t, "send", post(t, base, auth, "/api/v1/messages", "type", "direct", "to", fmt.Sprintf("[%d]", to), "content", content))
}

func evPatchConfig(t *testing.T, base string, kv ...string) map[string]any {
	t.Helper()
	res := do(t, base, request{method: http.MethodPatch, path: "/_fake/config", body: formBody(kv...), contentType: formType})
	return requireSuccess(t, "PATCH /_fake/config", res)["config"].(map[string]any)
}

func TestEventQueueFlow(t *testing.T) {
	ts := newServer(t)
	member, _ := defaultFixture.UserByRole("member")
	q := evRegister(t, ts.URL, memberAuth, "event_types", `["message"]`)

	if evs := evPoll(t, ts.URL, memberAuth, q, -1, true); len(evs) != 0 {
		t.Fatalf("a new queue has events: %v", evs)
	}

	evSendDirect(t, ts.URL, ownerAuth, member.ID, "first")
	requireSuccess(t, "a linkifier (not a message event)", post(t, ts.URL, ownerAuth, "/api/v1/realm/filters",
		"pattern", "EV-(?P<id>[0-9]+)", "url_template", "https://ev.example/{id}"))
	evSendDirect(t, ts.URL, ownerAuth, member.ID, "second")

	// Events waiting: even a blocking fetch answers at once.
	evs := evPoll(t, ts.URL, memberAuth, q, -1, false)
	if len(evs) != 2 {
		t.Fatalf("%d events, want the two messages: %v", len(evs), evs)
	}
	for i, want := range []string{"first", "second"} {
		ev := evs[i]
		msg, _ := ev["message"].(map[string]any)
		if ev["type"] != "message" || ev["id"] != float64(i) || msg == nil || !strings.Contains(fmt.Sprint(msg["content"]), want) {
			t.Errorf("event %d: %v", i, ev)
		}
	}
	// Acknowledged events are gone; the numbering goes on.
	if evs := evPoll(t, ts.URL, memberAuth, q, 1, true); len(evs) != 0 {
		t.Errorf("after acknowledging: %v", evs)
	}
	evSendDirect(t, ts.URL, ownerAuth, member.ID, "third")
	if evs := evPoll(t, ts.URL, memberAuth, q, 1, true); len(evs) != 1 || evs[0]["id"] != float64(2) {
		t.Errorf("third message: %v", evs)
	}

	// DELETE /events ends the queue.
	requireSuccess(t, "DELETE /events", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/events",
		body: formBody("queue_id", q), contentType: formType, auth: memberAuth}))
	evBadQueue(t, get(t, ts.URL, memberAuth, "/api/v1/events", evQuery(q, 2, true)), q)
}

func TestEventLongPollWakesOnChange(t *testing.T) {
	ts := newServer(t)
	// A poll woken only by its timeout would still bring the message, so the time tells the
	// two apart: far longer than any wake-up takes on a busy machine.
	evPatchConfig(t, ts.URL, "event_poll_timeout_seconds", "300")
	member, _ := defaultFixture.UserByRole("member")
	q := evRegister(t, ts.URL, memberAuth)
	began := time.Now()
	ch := evAsyncGet(context.Background(), ts.URL, memberAuth, "/api/v1/events", evQuery(q, -1, false))
	evAwaitWaiting(t, ts, q)
	evSendDirect(t, ts.URL, ownerAuth, member.ID, "wake up")
	r := evAwait(t, ch, patience(t))
	if r.status != http.StatusOK || r.env["result"] != "success" || r.env["queue_id"] != nil {
		t.Fatalf("HTTP %d %v", r.status, r.env)
	}
	evs := evList(t, r.env)
	if len(evs) == 0 || evs[len(evs)-1]["type"] != "message" {
		t.Fatalf("events %v, want the message", evs)
	}
	if d := time.Since(began); d >= 300*time.Second {
		t.Errorf("answered after %v: woken by the poll timeout, not the message", d)
	}
}

func TestEventHeartbeat(t *testing.T) {
	ts := newServer(t)
	cfg := evPatchConfig(t, ts.URL, "event_poll_timeout_seconds", "1")
	if cfg["event_poll_timeout_seconds"] != float64(1) || cfg["event_queue_idle_seconds"] != float64(600) {
		t.Fatalf("config %v", cfg)
	}
	q := evRegister(t, ts.URL, memberAuth, "event_types", `["message"]`) // heartbeats pass any filter
	began := time.Now()
	evs := evPoll(t, ts.URL, memberAuth, q, -1, false)
	// No upper bound: a busy machine answers late, and a poll that never answers is go test
	// -timeout's to report.
	if d := time.Since(began); d < time.Second {
		t.Errorf("heartbeat after %v, want the 1 s poll timeout first", d)
	}
	if len(evs) != 1 || evs[0]["type"] != "heartbeat" || evs[0]["id"] != float64(0) {
		t.Fatalf("events %v, want one heartbeat with id 0", evs)
	}
	// A heartbeat is a queued event like any other.
	if evs := evPoll(t, ts.URL, memberAuth, q, -1, true); len(evs) != 1 || evs[0]["type"] != "heartbeat" {
		t.Errorf("unacknowledged heartbeat gone: %v", evs)
	}
	if evs := evPoll(t, ts.URL, memberAuth, q, 0, true); len(evs) != 0 {
		t.Errorf("after acknowledging it: %v", evs)
	}
}

func TestEventPollEndsWithTheClient(t *testing.T) {
	ts := newServer(t)
	evPatchConfig(t, ts.URL, "event_poll_timeout_seconds", "300")
	requireSuccess(t, "clear journal", do(t, ts.URL, request{method: http.MethodDelete, path: "/_fake/journal"}))
	q := evRegister(t, ts.URL, memberAuth)
	ctx, cancel := context.WithCancel(context.Background())
	ch := evAsyncGet(ctx, ts.URL, memberAuth, "/api/v1/events", evQuery(q, -1, false))
	evAwaitWaiting(t, ts, q)
	cancel()
	<-ch
	// The journal records a request when its handler returns: the poll must end before its
	// 300 s timeout once the client has gone (a margin no busy machine needs).
	deadline := time.Now().Add(240 * time.Second)
	for {
		env := requireSuccess(t, "journal", get(t, ts.URL, "", "/_fake/journal", ""))
		if strings.Contains(canonical(env["requests"]), `"path":"/api/v1/events"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the poll still runs after its client went away: %v", env["requests"])
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The queue is usable again.
	if evs := evPoll(t, ts.URL, memberAuth, q, -1, true); len(evs) != 0 {
		t.Errorf("events after the abandoned poll: %v", evs)
	}
}

func evBadQueue(t *testing.T, res response, queueID string) {
	t.Helper()
	checkBad(t, badCase{want: bad(400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+queueID)}, res)
	if res.env != nil && res.env["queue_id"] != queueID {
		t.Errorf("queue_id %v, want %q", res.env["queue_id"], queueID)
	}
}

func TestBadEventQueueID(t *testing.T) {
	ts := newServer(t)
	ownerQueue := evRegister(t, ts.URL, ownerAuth)
	deleted := evRegister(t, ts.URL, memberAuth)
	requireSuccess(t, "delete", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/events",
		query: url.Values{"queue_id": {deleted}}.Encode(), auth: memberAuth}))
	tests := []struct {
		name  string
		queue string
	}{
		{"unknown", "1:999999"},
		{"malformed", "not a queue"},
		{"empty", ""},
		{"another user's", ownerQueue},
		{"deleted", deleted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evBadQueue(t, get(t, ts.URL, memberAuth, "/api/v1/events", evQuery(tt.queue, -1, false)), tt.queue)
			evBadQueue(t, do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/events",
				body: formBody("queue_id", tt.queue), contentType: formType, auth: memberAuth}), tt.queue)
		})
	}
	// The owner's queue survived the member's attempts.
	evPoll(t, ts.URL, ownerAuth, ownerQueue, -1, true)
}

func TestEventQueueExpiry(t *testing.T) {
	ts := newServer(t)
	clock := func(kv ...string) {
		t.Helper()
		requireSuccess(t, "clock", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/clock", body: formBody(kv...), contentType: formType}))
	}
	idle := evRegister(t, ts.URL, memberAuth)
	used := evRegister(t, ts.URL, memberAuth)
	clock("advance", "599")
	evPoll(t, ts.URL, memberAuth, used, -1, true)
	clock("advance", "1") // idle: 600 s untouched, the real server's lifetime
	evBadQueue(t, get(t, ts.URL, memberAuth, "/api/v1/events", evQuery(idle, -1, true)), idle)
	evPoll(t, ts.URL, memberAuth, used, -1, true)

	// The lifetime is a setting.
	evPatchConfig(t, ts.URL, "event_queue_idle_seconds", "30")
	short := evRegister(t, ts.URL, memberAuth)
	clock("advance", "29")
	evPoll(t, ts.URL, memberAuth, short, -1, true)
	clock("advance", "30")
	evBadQueue(t, get(t, ts.URL, memberAuth, "/api/v1/events", evQuery(short, -1, true)), short)

	// A reset drops every queue and restores the default timing.
	kept := evRegister(t, ts.URL, memberAuth)
	requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset"}))
	evBadQueue(t, get(t, ts.URL, memberAuth, "/api/v1/events", evQuery(kept, -1, true)), kept)
	cfg := requireSuccess(t, "config", get(t, ts.URL, "", "/_fake/config", ""))["config"].(map[string]any)
	if cfg["event_poll_timeout_seconds"] != float64(10) || cfg["event_queue_idle_seconds"] != float64(600) {
		t.Errorf("config after reset: %v", cfg)
	}
}

// TestEventsWithoutQueueID: as on the real server, dont_block without queue_id makes a new
// queue; without dont_block the queue_id is missing.
func TestEventsWithoutQueueID(t *testing.T) {
	ts := newServer(t)
	member, _ := defaultFixture.UserByRole("member")
	env := requireSuccess(t, "new queue", get(t, ts.URL, memberAuth, "/api/v1/events", "dont_block=true&event_types=%5B%22message%22%5D"))
	q, _ := env["queue_id"].(string)
	if q == "" || len(evList(t, env)) != 0 {
		t.Fatalf("new queue: %v", env)
	}
	evSendDirect(t, ts.URL, ownerAuth, member.ID, "to the new queue")
	if evs := evPoll(t, ts.URL, memberAuth, q, -1, true); len(evs) != 1 || evs[0]["type"] != "message" {
		t.Errorf("events %v", evs)
	}
	checkBad(t, badCase{want: badRequest("Missing 'queue_id' argument")}, get(t, ts.URL, memberAuth, "/api/v1/events", "last_event_id=-1"))
	checkBad(t, badCase{want: badRequest("Missing 'last_event_id' argument")}, get(t, ts.URL, memberAuth, "/api/v1/events", "queue_id="+url.QueryEscape(q)))
}

// TestRegisterStateAndQueueTogether: a change made right after POST /register is in the
// queue, and the state came with the queue.
func TestRegisterStateAndQueueTogether(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "linkifier", post(t, ts.URL, ownerAuth, "/api/v1/realm/filters",
		"pattern", "RS0-(?P<id>[0-9]+)", "url_template", "https://rs.example/{id}"))
	env := requireSuccess(t, "register", post(t, ts.URL, ownerAuth, "/api/v1/register", "fetch_event_types", `["realm_linkifiers"]`,
		"client_capabilities", `{"notification_settings_null": false, "linkifier_url_template": true}`))
	q, _ := env["queue_id"].(string)
	if list, _ := env["realm_linkifiers"].([]any); len(list) != 1 || env["last_event_id"] != float64(-1) {
		t.Fatalf("register: %v", env)
	}
	requireSuccess(t, "linkifier", post(t, ts.URL, ownerAuth, "/api/v1/realm/filters",
		"pattern", "RS-(?P<id>[0-9]+)", "url_template", "https://rs.example/{id}"))
	found := false
	for _, ev := range evPoll(t, ts.URL, ownerAuth, q, -1, true) {
		found = found || ev["type"] == "realm_linkifiers"
	}
	if !found {
		t.Errorf("no realm_linkifiers event after adding a linkifier")
	}
}

func TestEventConfigBounds(t *testing.T) {
	ts := newServer(t)
	for _, tt := range []struct{ name, value, msg string }{
		{"event_poll_timeout_seconds", "0", "event_poll_timeout_seconds must be between 1 and 300"},
		{"event_poll_timeout_seconds", "301", "event_poll_timeout_seconds must be between 1 and 300"},
		{"event_queue_idle_seconds", "0", "event_queue_idle_seconds must be between 1 and 3153600000"},
		{"event_queue_idle_seconds", "-5", "event_queue_idle_seconds must be between 1 and 3153600000"},
	} {
		res := do(t, ts.URL, request{method: http.MethodPatch, path: "/_fake/config", body: formBody(tt.name, tt.value), contentType: formType})
		checkBad(t, badCase{want: badRequest(tt.msg)}, res)
	}
	cfg := evPatchConfig(t, ts.URL, "event_poll_timeout_seconds", "300", "event_queue_idle_seconds", "1")
	if cfg["event_poll_timeout_seconds"] != float64(300) || cfg["event_queue_idle_seconds"] != float64(1) {
		t.Errorf("config %v", cfg)
	}
}
