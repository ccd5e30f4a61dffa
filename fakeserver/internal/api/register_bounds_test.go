package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/api"
)

// What an event queue keeps of its registration is bounded: each list or dict parameter
// (event_types, fetch_event_types, narrow, client_capabilities) takes at most
// api.MaxQueueParamBytes bytes of JSON, on POST /register and on GET /events when it makes a
// queue.

// queueParamOf is a valid value of a queue parameter of about size bytes of JSON, distinct
// for each n.
func queueParamOf(name string, size, n int) string {
	pad := func(overhead int) string {
		tag := fmt.Sprint(n, "-")
		return tag + strings.Repeat("x", max(size-overhead-len(tag), 0))
	}
	var v any
	switch name {
	case "narrow":
		v = [][]string{{"topic", pad(len(`[["topic",""]]`))}}
	case "client_capabilities":
		v = map[string]bool{pad(len(`{"":true}`)): true}
	default:
		v = []string{pad(len(`[""]`))}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestQueueParametersBounded(t *testing.T) {
	base := newServer(t).URL
	register := func(name, value string) response {
		return post(t, base, memberAuth, "/api/v1/register", name, value, "fetch_event_types", `["alert_words"]`)
	}
	makeQueue := func(name, value string) response {
		return get(t, base, memberAuth, "/api/v1/events", "dont_block=true&"+name+"="+url.QueryEscape(value))
	}
	large := 3 << 20
	if testing.Short() { // the race run checks concurrency, not bulk
		large = 64 << 10
	}
	for _, c := range []struct {
		route string
		send  func(name, value string) response
		names []string
		large int // the largest value tried: a query string stops at the header bound
	}{
		{"POST /register", register, []string{"event_types", "narrow", "client_capabilities"}, large},
		{"GET /events", makeQueue, []string{"event_types", "narrow"}, 32 << 10},
	} {
		for _, name := range c.names {
			t.Run(c.route+" "+name, func(t *testing.T) {
				at := queueParamOf(name, api.MaxQueueParamBytes, 1)
				if len(at) != api.MaxQueueParamBytes {
					t.Fatalf("the value at the bound has %d bytes", len(at))
				}
				requireSuccess(t, "at the bound", c.send(name, at))
				for _, size := range []int{api.MaxQueueParamBytes + 1, c.large} {
					res := c.send(name, queueParamOf(name, size, 2))
					want := fmt.Sprintf("%s is too long (limit: %d bytes)", name, api.MaxQueueParamBytes)
					if res.status != http.StatusBadRequest || res.env["code"] != "BAD_REQUEST" || res.env["msg"] != want {
						t.Errorf("%d bytes: got %s, want 400 BAD_REQUEST %q", size, res, want)
					}
				}
			})
		}
	}
	res := post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", queueParamOf("fetch_event_types", api.MaxQueueParamBytes+1, 1))
	if want := fmt.Sprintf("fetch_event_types is too long (limit: %d bytes)", api.MaxQueueParamBytes); res.env["msg"] != want {
		t.Errorf("POST /register with a long fetch_event_types: got %s, want %q", res, want)
	}
}

// TestQueuesAtTheirBound: a member's 1,000 queues, each registered with the largest
// event_types, narrow and client_capabilities taken, all different, keep at most the heap
// docs/bounds.md gives.
func TestQueuesAtTheirBound(t *testing.T) {
	if testing.Short() {
		t.Skip("a measure of memory that the race detector distorts: make unit runs it")
	}
	const queues, limit = 1000, 40 << 20
	ts := newServer(t)
	before := liveHeap()
	for i := range queues {
		kv := []string{"fetch_event_types", `["alert_words"]`}
		for _, name := range []string{"event_types", "narrow", "client_capabilities"} {
			kv = append(kv, name, queueParamOf(name, api.MaxQueueParamBytes, i))
		}
		requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", kv...))
	}
	grown := int64(liveHeap()) - int64(before)
	runtime.KeepAlive(ts)
	t.Logf("%d queues at the bound: live heap grew by %.1f MB", queues, float64(grown)/(1<<20))
	if grown > limit {
		t.Errorf("the queues keep %.1f MB, want at most %d MB", float64(grown)/(1<<20), limit>>20)
	}
}
