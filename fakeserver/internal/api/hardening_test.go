package api_test

// Hardening: no client can freeze the fake, and a reset cannot confuse a client.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestSlowBodyFreezesNobody: a client that announces a body of 1000 bytes and sends 10 holds
// no lock, so a reset and other requests are answered at once while it dawdles.
func TestSlowBodyFreezesNobody(t *testing.T) {
	ts := newServer(t)
	host := ts.URL[len("http://"):]
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nusername=a", host)
	time.Sleep(100 * time.Millisecond) // the request is in the fake's hands, its body short

	for _, req := range []request{
		{method: http.MethodPost, path: "/_fake/reset"},
		{method: http.MethodGet, path: "/api/v1/server_settings"},
		{method: http.MethodGet, path: "/api/v1/users/me", auth: memberAuth},
		{method: http.MethodPost, path: "/api/v1/messages", auth: memberAuth, contentType: formType,
			body: formBody("type", "direct", "to", "[4]", "content", "still here")},
		{method: http.MethodPost, path: "/_fake/reset"},
	} {
		start := time.Now()
		res, err := send(httpClient, ts.URL, req)
		if err != nil {
			t.Fatalf("%s %s beside a slow client: %v", req.method, req.path, err)
		}
		if res.status != http.StatusOK {
			t.Errorf("%s %s: %d %s", req.method, req.path, res.status, res)
		}
		t.Logf("%s %s answered in %v", req.method, req.path, time.Since(start))
	}
}

// TestResetEndsQueues: a long poll in flight during a reset answers BAD_EVENT_QUEUE_ID (not an
// empty success), and no queue id handed out before the reset names a queue after it.
func TestResetEndsQueues(t *testing.T) {
	ts := newServer(t)
	before := evRegister(t, ts.URL, memberAuth)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	poll := evAsyncGet(ctx, ts.URL, memberAuth, "/api/v1/events", evQuery(before, -1, false))
	evAwaitWaiting(t, ts, before)
	requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset"}))
	r := evAwait(t, poll, patience(t))
	if r.status != http.StatusBadRequest || r.env["code"] != "BAD_EVENT_QUEUE_ID" || r.env["queue_id"] != before {
		t.Errorf("poll across a reset: %d %v, want 400 BAD_EVENT_QUEUE_ID for %s", r.status, r.env, before)
	}

	after := evRegister(t, ts.URL, memberAuth)
	if after == before {
		t.Fatalf("queue id %s handed out again after a reset", after)
	}
	// The old poller comes back with its old id and finds nothing, while the new queue holds
	// the new test's event.
	evSendDirect(t, ts.URL, ownerAuth, 4, "for the new queue only")
	evBadQueue(t, get(t, ts.URL, memberAuth, "/api/v1/events", evQuery(before, -1, true)), before)
	if evs := evPoll(t, ts.URL, memberAuth, after, -1, true); len(evs) != 1 || evs[0]["type"] != "message" {
		t.Errorf("new queue: %v", evs)
	}
}
