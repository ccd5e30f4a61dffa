package events

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/clock"
)

const start = 1767225600 // the hub's virtual start, and so its queue-id generation

func newHub(t *testing.T, opts Options) (*Hub, *clock.Clock) {
	t.Helper()
	clk := clock.New(time.Unix(start, 0))
	return NewHub(clk, opts), clk
}

// fetch is a non-blocking Get that must succeed.
func fetch(t *testing.T, h *Hub, user int, queueID string, last int) []Event {
	t.Helper()
	evs, err := h.Get(context.Background(), user, queueID, last, true)
	if err != nil {
		t.Fatalf("Get(%d, %s, %d): %v", user, queueID, last, err)
	}
	if evs == nil {
		t.Fatalf("Get(%d, %s, %d) returned nil, want a (possibly empty) list", user, queueID, last)
	}
	return evs
}

// summary renders events as "type/id" for comparisons.
func summary(evs []Event) string {
	parts := make([]string, len(evs))
	for i, ev := range evs {
		parts[i] = fmt.Sprintf("%v/%v", ev["type"], ev["id"])
	}
	return strings.Join(parts, " ")
}

func wantBadQueue(t *testing.T, got error, queueID string) {
	t.Helper()
	if got == nil {
		t.Fatalf("queue %q: no error, want BAD_EVENT_QUEUE_ID", queueID)
	}
	switch err := apierr.From(got); {
	case err.Code != "BAD_EVENT_QUEUE_ID" || err.Status != http.StatusBadRequest:
		t.Fatalf("queue %q: %v, want BAD_EVENT_QUEUE_ID (400)", queueID, err)
	case err.Msg != "Bad event queue ID: "+queueID:
		t.Fatalf("msg %q", err.Msg)
	case err.Extra["queue_id"] != queueID:
		t.Fatalf("extra queue_id %v, want %q", err.Extra["queue_id"], queueID)
	}
}

func TestRegisterIDs(t *testing.T) {
	h, _ := newHub(t, Options{})
	for i := 1; i <= 3; i++ {
		id, last := h.Register(QueueSpec{UserID: 1})
		if want := fmt.Sprintf("%d-0:%d", start, i); id != want || last != -1 {
			t.Errorf("queue %d: id %q last %d, want %q and -1", i, id, last, want)
		}
	}
	// Reset starts a new generation: reproducible ids, none of them handed out before.
	h.Reset()
	if id, _ := h.Register(QueueSpec{UserID: 1}); id != fmt.Sprintf("%d-1:1", start) {
		t.Errorf("after Reset: %q", id)
	}
}

func TestNumberingPerQueue(t *testing.T) {
	h, _ := newHub(t, Options{})
	a, _ := h.Register(QueueSpec{UserID: 1})
	h.Publish(Event{"type": "x"}, 1)
	h.Publish(Event{"type": "x"}, 1)
	b, _ := h.Register(QueueSpec{UserID: 1})
	h.Publish(Event{"type": "y", "id": 99}, 1) // a publisher's "id" is replaced by the queue's
	if got := summary(fetch(t, h, 1, a, -1)); got != "x/0 x/1 y/2" {
		t.Errorf("first queue: %s", got)
	}
	if got := summary(fetch(t, h, 1, b, -1)); got != "y/0" {
		t.Errorf("queue registered later: %s (each queue numbers from 0 and sees only later events)", got)
	}
}

func TestFilteringByType(t *testing.T) {
	tests := []struct {
		name  string
		types []string
		want  string
	}{
		{"nil: every type", nil, "message/0 stream/1 realm/2"},
		{"one type", []string{"message"}, "message/0"},
		{"two types", []string{"realm", "stream"}, "stream/0 realm/1"},
		{"unknown type", []string{"bogus"}, ""},
		{"empty list: none", []string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := newHub(t, Options{})
			q, _ := h.Register(QueueSpec{UserID: 1, EventTypes: tt.types})
			for _, typ := range []string{"message", "stream", "realm"} {
				h.Publish(Event{"type": typ}, 1)
			}
			h.Publish(Event{"op": "no type"}, 1) // only an unfiltered queue takes an event without type
			got := summary(fetch(t, h, 1, q, -1))
			if tt.types == nil {
				tt.want += " <nil>/3"
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPerUserDelivery(t *testing.T) {
	h, _ := newHub(t, Options{})
	q1a, _ := h.Register(QueueSpec{UserID: 1})
	q1b, _ := h.Register(QueueSpec{UserID: 1})
	q2, _ := h.Register(QueueSpec{UserID: 2})
	q3, _ := h.Register(QueueSpec{UserID: 3})
	h.Publish(Event{"type": "to-1"}, 1)
	h.Publish(Event{"type": "to-1-and-2"}, 2, 1, 2) // a user named twice gets it once
	h.Publish(Event{"type": "to-nobody"})
	h.Publish(Event{"type": "to-unknown"}, 42)
	for _, tt := range []struct {
		user  int
		queue string
		want  string
	}{
		{1, q1a, "to-1/0 to-1-and-2/1"},
		{1, q1b, "to-1/0 to-1-and-2/1"},
		{2, q2, "to-1-and-2/0"},
		{3, q3, ""},
	} {
		if got := summary(fetch(t, h, tt.user, tt.queue, -1)); got != tt.want {
			t.Errorf("user %d queue %s: %q, want %q", tt.user, tt.queue, got, tt.want)
		}
	}
}

func TestQueuesDoNotShareMaps(t *testing.T) {
	h, _ := newHub(t, Options{})
	a, _ := h.Register(QueueSpec{UserID: 1})
	b, _ := h.Register(QueueSpec{UserID: 1})
	ev := Event{"type": "x", "data": map[string]any{"k": "v"}, "list": []any{map[string]any{"n": 1}}}
	h.Publish(ev, 1)
	ev["type"] = "changed by the publisher"
	first := fetch(t, h, 1, a, -1)[0]
	first["type"] = "changed by a client"
	first["data"].(map[string]any)["k"] = "changed"
	first["list"].([]any)[0].(map[string]any)["n"] = 2
	second := fetch(t, h, 1, b, -1)[0]
	if second["type"] != "x" || second["data"].(map[string]any)["k"] != "v" || second["list"].([]any)[0].(map[string]any)["n"] != 1 {
		t.Errorf("the second queue's copy changed: %v", second)
	}
	if _, ok := ev["id"]; ok {
		t.Errorf("the publisher's map gained an id: %v", ev)
	}
}

func TestAcknowledgement(t *testing.T) {
	h, _ := newHub(t, Options{})
	q, _ := h.Register(QueueSpec{UserID: 1})
	for range 4 {
		h.Publish(Event{"type": "x"}, 1)
	}
	steps := []struct {
		last    int
		want    string // events returned
		wantErr string // msg of the BAD_REQUEST, "" for success
	}{
		{-1, "x/0 x/1 x/2 x/3", ""},
		{-1, "x/0 x/1 x/2 x/3", ""}, // nothing acknowledged: the same again
		{1, "x/2 x/3", ""},
		{1, "x/2 x/3", ""}, // acknowledging again is harmless
		{0, "", "An event newer than 0 has already been pruned!"}, // going back
		{-1, "", "An event newer than -1 has already been pruned!"},
		{7, "", "Event 7 was not in this queue"}, // acknowledging ahead
		{2, "x/3", ""},                           // the errors changed nothing
		{3, "", ""},
	}
	for i, st := range steps {
		evs, err := h.Get(context.Background(), 1, q, st.last, true)
		if st.wantErr != "" {
			if e := apierr.From(err); err == nil || e.Code != "BAD_REQUEST" || e.Msg != st.wantErr || e.Status != 400 {
				t.Fatalf("step %d (last %d): %v, want BAD_REQUEST %q", i, st.last, err, st.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d (last %d): %v", i, st.last, err)
		}
		if got := summary(evs); got != st.want {
			t.Fatalf("step %d (last %d): %q, want %q", i, st.last, got, st.want)
		}
	}
	// A fresh queue acknowledges nothing but -1.
	fresh, _ := h.Register(QueueSpec{UserID: 1})
	if _, err := h.Get(context.Background(), 1, fresh, 0, true); err == nil || apierr.From(err).Msg != "Event 0 was not in this queue" {
		t.Errorf("fresh queue, last 0: %v", err)
	}
}

func TestDontBlockReturnsAtOnce(t *testing.T) {
	h, _ := newHub(t, Options{PollTimeout: time.Minute})
	q, _ := h.Register(QueueSpec{UserID: 1})
	began := time.Now()
	evs := fetch(t, h, 1, q, -1)
	// The poll timeout, not a guess at the machine's speed, tells a blocking Get apart.
	if len(evs) != 0 || time.Since(began) >= time.Minute {
		t.Errorf("dont_block on an empty queue: %v after %v", evs, time.Since(began))
	}
}

// getAsync starts a blocking Get and returns the channel its result arrives on.
type result struct {
	evs []Event
	err error
}

func getAsync(ctx context.Context, h *Hub, user int, queueID string, last int) <-chan result {
	out := make(chan result, 1)
	go func() {
		evs, err := h.Get(ctx, user, queueID, last, false)
		out <- result{evs, err}
	}()
	return out
}

// waitForPoller waits until a Get is blocked on the queue.
func waitForPoller(t *testing.T, h *Hub, queueID string) {
	t.Helper()
	deadline := time.Now().Add(patience(t))
	for time.Now().Before(deadline) {
		h.mu.Lock()
		q := h.queues[queueID]
		waiting := q != nil && q.waiter != nil
		h.mu.Unlock()
		if waiting {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("no Get blocked on %s", queueID)
}

// patience is how long a test waits for what load only delays: until a little before the test
// binary's deadline, so a busy machine never fails a test a quiet one passes.
func patience(t *testing.T) time.Duration {
	deadline, ok := t.Deadline()
	if !ok {
		return 10 * time.Minute
	}
	return time.Until(deadline) * 9 / 10
}

func receive(t *testing.T, ch <-chan result, within time.Duration) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(within):
		t.Fatalf("Get did not return within %v", within)
		return result{}
	}
}

func TestLongPollWakesOnPublish(t *testing.T) {
	h, _ := newHub(t, Options{PollTimeout: time.Minute})
	q, _ := h.Register(QueueSpec{UserID: 1, EventTypes: []string{"message"}})
	ch := getAsync(context.Background(), h, 1, q, -1)
	waitForPoller(t, h, q)
	h.Publish(Event{"type": "stream"}, 1)  // filtered out: must not wake the poll
	h.Publish(Event{"type": "message"}, 2) // another user's: must not wake it either
	select {
	case r := <-ch:
		t.Fatalf("woken by an event it does not receive: %v", r)
	case <-time.After(50 * time.Millisecond):
	}
	h.Publish(Event{"type": "message", "content": "hi"}, 1)
	r := receive(t, ch, patience(t))
	if r.err != nil || summary(r.evs) != "message/0" || r.evs[0]["content"] != "hi" {
		t.Errorf("got %v %v", r.evs, r.err)
	}
}

func TestHeartbeatAfterPollTimeout(t *testing.T) {
	h, _ := newHub(t, Options{PollTimeout: 30 * time.Millisecond})
	q, _ := h.Register(QueueSpec{UserID: 1, EventTypes: []string{"message"}}) // heartbeats pass any filter
	began := time.Now()
	r := receive(t, getAsync(context.Background(), h, 1, q, -1), patience(t))
	if r.err != nil || len(r.evs) != 1 || r.evs[0]["type"] != "heartbeat" || r.evs[0]["id"] != 0 {
		t.Fatalf("got %v %v, want one heartbeat with id 0", r.evs, r.err)
	}
	if d := time.Since(began); d < 30*time.Millisecond {
		t.Errorf("heartbeat after %v, before the poll timeout", d)
	}
	// The heartbeat is a queued event: it stays until acknowledged, and numbering goes on.
	if got := summary(fetch(t, h, 1, q, -1)); got != "heartbeat/0" {
		t.Errorf("unacknowledged heartbeat: %q", got)
	}
	h.Publish(Event{"type": "message"}, 1)
	if got := summary(fetch(t, h, 1, q, 0)); got != "message/1" {
		t.Errorf("after acknowledging the heartbeat: %q", got)
	}
	// The timeout can change at run time.
	h.SetPollTimeout(time.Hour)
	if got := h.Options().PollTimeout; got != time.Hour {
		t.Errorf("PollTimeout %v", got)
	}
	h.SetPollTimeout(0)
	if got := h.Options().PollTimeout; got != DefaultPollTimeout {
		t.Errorf("PollTimeout after reset to zero: %v", got)
	}
}

func TestContextCancellation(t *testing.T) {
	h, _ := newHub(t, Options{PollTimeout: time.Minute})
	q, _ := h.Register(QueueSpec{UserID: 1})
	ctx, cancel := context.WithCancel(context.Background())
	ch := getAsync(ctx, h, 1, q, -1)
	waitForPoller(t, h, q)
	cancel()
	r := receive(t, ch, patience(t))
	if r.err != nil || r.evs == nil || len(r.evs) != 0 {
		t.Fatalf("got %v %v, want an empty list", r.evs, r.err)
	}
	// The queue is free again and no heartbeat was queued.
	h.Publish(Event{"type": "x"}, 1)
	if got := summary(fetch(t, h, 1, q, -1)); got != "x/0" {
		t.Errorf("after the cancelled poll: %q", got)
	}
}

func TestNewFetchAnswersTheOldOne(t *testing.T) {
	h, _ := newHub(t, Options{PollTimeout: time.Minute})
	q, _ := h.Register(QueueSpec{UserID: 1})
	first := getAsync(context.Background(), h, 1, q, -1)
	waitForPoller(t, h, q)
	second := getAsync(context.Background(), h, 1, q, -1)
	if r := receive(t, first, patience(t)); r.err != nil || len(r.evs) != 0 {
		t.Errorf("first poll: %v %v", r.evs, r.err)
	}
	waitForPoller(t, h, q)
	h.Publish(Event{"type": "x"}, 1)
	if r := receive(t, second, patience(t)); summary(r.evs) != "x/0" {
		t.Errorf("second poll: %v %v", r.evs, r.err)
	}
}

func TestGarbageCollection(t *testing.T) {
	h, clk := newHub(t, Options{IdleTimeout: 10 * time.Minute})
	idle, _ := h.Register(QueueSpec{UserID: 1})
	used, _ := h.Register(QueueSpec{UserID: 1})
	clk.Advance(9 * time.Minute)
	fetch(t, h, 1, used, -1) // touching a queue keeps it alive
	clk.Advance(time.Minute - time.Second)
	fetch(t, h, 1, idle, -1) // 9m59s idle: still alive, and now touched
	clk.Advance(10 * time.Minute)
	h.Publish(Event{"type": "x"}, 1) // collection is lazy: any call may run it
	if n := h.Len(); n != 0 {
		t.Errorf("%d queues left after 10 idle minutes", n)
	}
	for _, q := range []string{idle, used} {
		_, err := h.Get(context.Background(), 1, q, -1, true)
		wantBadQueue(t, err, q)
	}

	// A queue with a poll waiting on it is never idle.
	h2, clk2 := newHub(t, Options{IdleTimeout: time.Minute, PollTimeout: time.Minute})
	polled, _ := h2.Register(QueueSpec{UserID: 1})
	ctx, cancel := context.WithCancel(context.Background())
	ch := getAsync(ctx, h2, 1, polled, -1)
	waitForPoller(t, h2, polled)
	clk2.Advance(time.Hour)
	h2.Register(QueueSpec{UserID: 2})
	if n := h2.Len(); n != 2 {
		t.Errorf("%d queues, want the polled one kept", n)
	}
	cancel()
	receive(t, ch, patience(t))
	fetch(t, h2, 1, polled, -1)

	// Shortening the idle timeout applies at once, without the clock moving.
	h2.SetIdleTimeout(time.Second)
	clk2.Advance(time.Second)
	h2.SetIdleTimeout(time.Hour)
	if n := h2.Len(); n != 2 {
		t.Errorf("%d queues, want 2 (1 s idle, timeout 1 h)", n)
	}
	h2.SetIdleTimeout(time.Second)
	if n := h2.Len(); n != 0 {
		t.Errorf("%d queues, want 0 after the timeout dropped to 1 s", n)
	}
}

func TestMaxQueuesPerUser(t *testing.T) {
	h, clk := newHub(t, Options{MaxQueuesPerUser: 3})
	var ids []string
	for range 3 {
		id, _ := h.Register(QueueSpec{UserID: 1})
		ids = append(ids, id)
		clk.Advance(time.Second)
	}
	fetch(t, h, 1, ids[0], -1) // the oldest is now the most recently used
	other, _ := h.Register(QueueSpec{UserID: 2})
	newest, _ := h.Register(QueueSpec{UserID: 1})
	_, err := h.Get(context.Background(), 1, ids[1], -1, true)
	wantBadQueue(t, err, ids[1])
	for _, id := range []string{ids[0], ids[2], newest} {
		fetch(t, h, 1, id, -1)
	}
	fetch(t, h, 2, other, -1)
}

func TestBadQueueErrors(t *testing.T) {
	h, clk := newHub(t, Options{IdleTimeout: time.Minute})
	mine, _ := h.Register(QueueSpec{UserID: 1})
	theirs, _ := h.Register(QueueSpec{UserID: 2})
	deleted, _ := h.Register(QueueSpec{UserID: 1})
	if err := h.Delete(1, deleted); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	expired, _ := h.Register(QueueSpec{UserID: 1})
	clk.Advance(time.Minute)
	mine2, _ := h.Register(QueueSpec{UserID: 1})
	tests := []struct {
		name  string
		user  int
		queue string
	}{
		{"unknown", 1, "1:999"},
		{"empty", 1, ""},
		{"not an id at all", 1, "bogus"},
		{"another user's", 1, theirs},
		{"deleted", 1, deleted},
		{"expired", 1, expired},
		{"mine, asked by another user", 2, mine2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.Get(context.Background(), tt.user, tt.queue, -1, true)
			wantBadQueue(t, err, tt.queue)
			_, err = h.Get(context.Background(), tt.user, tt.queue, -1, false) // never blocks
			wantBadQueue(t, err, tt.queue)
			wantBadQueue(t, h.Delete(tt.user, tt.queue), tt.queue)
		})
	}
	// The failed deletes left other users' queues alone.
	fetch(t, h, 1, mine2, -1)
	_, err := h.Get(context.Background(), 1, mine, -1, true)
	wantBadQueue(t, err, mine) // expired with the others
}

func TestDeleteAndResetAnswerWaitingPolls(t *testing.T) {
	for _, tt := range []struct {
		name string
		end  func(h *Hub, q string)
	}{
		{"delete", func(h *Hub, q string) { _ = h.Delete(1, q) }},
		{"reset", func(h *Hub, _ string) { h.Reset() }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := newHub(t, Options{PollTimeout: time.Minute})
			q, _ := h.Register(QueueSpec{UserID: 1})
			ch := getAsync(context.Background(), h, 1, q, -1)
			waitForPoller(t, h, q)
			tt.end(h, q)
			// Not an empty success: the client must learn that its queue is gone.
			r := receive(t, ch, patience(t))
			if len(r.evs) != 0 {
				t.Errorf("got events %v", r.evs)
			}
			wantBadQueue(t, r.err, q)
			_, err := h.Get(context.Background(), 1, q, -1, true)
			wantBadQueue(t, err, q)
		})
	}
}

// TestConcurrentPublishers: under -race, publishers, long-polling clients and registrations
// at once; every polled queue sees every event exactly once, numbered without gaps, each
// publisher's events in the order it published them.
func TestConcurrentPublishers(t *testing.T) {
	const publishers, perPublisher, users = 8, 200, 3
	h, _ := newHub(t, Options{PollTimeout: 20 * time.Millisecond})
	queues := make([]string, users)
	for u := range users {
		queues[u], _ = h.Register(QueueSpec{UserID: u + 1})
	}
	ctx, cancel := context.WithCancel(context.Background())
	received := make([][]Event, users)
	lasts := make([]int, users)
	var pollers sync.WaitGroup
	for u := range users { // one client per queue, acknowledging as it goes
		pollers.Go(func() {
			last := -1
			for ctx.Err() == nil {
				evs, err := h.Get(ctx, u+1, queues[u], last, false)
				if err != nil {
					t.Errorf("poll %s: %v", queues[u], err)
					return
				}
				for _, ev := range evs {
					if ev["id"] != last+1 {
						t.Errorf("queue %s: id %v after %d", queues[u], ev["id"], last)
					}
					last = ev["id"].(int)
					received[u] = append(received[u], ev)
				}
			}
			lasts[u] = last
		})
	}
	var pubs sync.WaitGroup
	for p := range publishers {
		pubs.Go(func() {
			for n := range perPublisher {
				h.Publish(Event{"type": "x", "from": p, "n": n}, 1, 2, 3)
				if n%50 == 0 {
					h.Register(QueueSpec{UserID: 1 + n%users})
				}
			}
		})
	}
	pubs.Wait()
	cancel()
	pollers.Wait()
	for u := range users {
		evs := append(received[u], fetch(t, h, u+1, queues[u], lasts[u])...)
		seen := map[[2]int]bool{}
		lastN := map[int]int{}
		for _, ev := range evs {
			if ev["type"] == "heartbeat" {
				continue
			}
			from, n := ev["from"].(int), ev["n"].(int)
			if seen[[2]int{from, n}] {
				t.Fatalf("queue %s: event %d/%d twice", queues[u], from, n)
			}
			seen[[2]int{from, n}] = true
			if prev, ok := lastN[from]; ok && n <= prev {
				t.Fatalf("queue %s: publisher %d's events out of order", queues[u], from)
			}
			lastN[from] = n
		}
		if len(seen) != publishers*perPublisher {
			t.Errorf("queue %s: %d events, want %d", queues[u], len(seen), publishers*perPublisher)
		}
	}
}

func TestCloseAnswersPolls(t *testing.T) {
	h, _ := newHub(t, Options{PollTimeout: time.Minute})
	q, _ := h.Register(QueueSpec{UserID: 1})
	ch := getAsync(context.Background(), h, 1, q, -1)
	waitForPoller(t, h, q)
	h.Close()
	if r := receive(t, ch, patience(t)); r.err != nil || len(r.evs) != 0 {
		t.Errorf("waiting poll: %v %v", r.evs, r.err)
	}
	// Later polls do not block either; the queue still works.
	if r := receive(t, getAsync(context.Background(), h, 1, q, -1), patience(t)); r.err != nil {
		t.Errorf("poll after Close: %v", r.err)
	}
	h.Publish(Event{"type": "x"}, 1)
	if got := summary(fetch(t, h, 1, q, -1)); got != "x/0" {
		t.Errorf("after Close: %q", got)
	}
}

// TestPublishEachAsksEveryQueue: each queue gets the form its client options call for, and
// nothing when the form gives nothing; event types and the channel-typing capability filter
// what the form gives.
func TestPublishEachAsksEveryQueue(t *testing.T) {
	h, _ := newHub(t, Options{})
	plain, _ := h.Register(QueueSpec{UserID: 1})
	html, _ := h.Register(QueueSpec{UserID: 1, Client: Client{ApplyMarkdown: true}})
	typing, _ := h.Register(QueueSpec{UserID: 1, Client: Client{Capabilities: map[string]bool{"stream_typing_notifications": true}}})
	onlyPresence, _ := h.Register(QueueSpec{UserID: 1, EventTypes: []string{"presence"}})
	h.PublishEach(func(user int, c Client) []Event {
		if c.ApplyMarkdown {
			return []Event{{"type": "message", "form": "html"}}
		}
		if c.Can("stream_typing_notifications") {
			return nil
		}
		return []Event{{"type": "message", "form": "markdown"}}
	}, 1)
	h.Publish(Event{"type": "typing", "stream_id": 1}, 1)
	h.Publish(Event{"type": "typing", "recipients": []any{}}, 1)
	for _, tc := range []struct{ queue, want string }{
		{plain, "message/0 typing/1"},
		{html, "message/0 typing/1"},
		{typing, "typing/0 typing/1"},
		{onlyPresence, ""},
	} {
		if got := summary(fetch(t, h, 1, tc.queue, -1)); got != tc.want {
			t.Errorf("queue %s: %s, want %s", tc.queue, got, tc.want)
		}
	}
	if evs := fetch(t, h, 1, html, -1); evs[0]["form"] != "html" {
		t.Errorf("the apply_markdown queue got %v", evs[0])
	}
}

// Queues registered alike get one form of an event, made once for all of them; each client
// kind gets its own, and every queue still numbers the event itself.
func TestQueuesAlikeShareOneForm(t *testing.T) {
	h, _ := newHub(t, Options{})
	var alike []string
	for range 3 {
		q, _ := h.Register(QueueSpec{UserID: 1, Client: Client{Capabilities: map[string]bool{"a": true, "b": true}}})
		alike = append(alike, q)
	}
	html, _ := h.Register(QueueSpec{UserID: 1, Client: Client{ApplyMarkdown: true}})
	h.Publish(Event{"type": "first"}, 1)
	calls := map[bool]int{}
	h.PublishEach(func(_ int, c Client) []Event {
		calls[c.ApplyMarkdown]++
		return []Event{{"type": "message", "html": c.ApplyMarkdown}}
	}, 1)
	if calls[false] != 1 || calls[true] != 1 {
		t.Errorf("form ran %d times for the three queues alike and %d for the other, want once each", calls[false], calls[true])
	}
	for _, q := range append(alike, html) {
		evs := fetch(t, h, 1, q, -1)
		if got := summary(evs); got != "first/0 message/1" || evs[1]["html"] != (q == html) {
			t.Errorf("queue %s: %s %v", q, got, evs)
		}
	}
}

// All of a user's queues together hold at most MaxEventsPerUser events: beyond it the fullest
// go, and another user's queues, holding as many, are not touched.
func TestMaxEventsPerUser(t *testing.T) {
	h, _ := newHub(t, Options{MaxEvents: 10, MaxEventsPerUser: 6})
	polled, _ := h.Register(QueueSpec{UserID: 1})
	fullest, _ := h.Register(QueueSpec{UserID: 1})
	kept, _ := h.Register(QueueSpec{UserID: 1})
	other, _ := h.Register(QueueSpec{UserID: 2})
	for range 2 {
		h.Publish(Event{"type": "x"}, 1, 2)
	}
	fetch(t, h, 1, polled, 1) // acknowledges both: 0 + 2 + 2 held
	h.Publish(Event{"type": "x"}, 1, 2)
	// 1 + 3 + 3 is over 6: the first of the fullest goes, 1 + 3 stay.
	_, err := h.Get(context.Background(), 1, fullest, -1, true)
	wantBadQueue(t, err, fullest)
	for _, tc := range []struct {
		user       int
		queue      string
		last, want int
	}{{1, polled, 1, 1}, {1, kept, -1, 3}, {2, other, -1, 3}} {
		if n := len(fetch(t, h, tc.user, tc.queue, tc.last)); n != tc.want {
			t.Errorf("queue %s holds %d events, want %d", tc.queue, n, tc.want)
		}
	}
}

// Each user gets the event its form made for it, even where the forms' maps, freed once
// copied, come back at the same address.
func TestFormsOfOnePublishStayApart(t *testing.T) {
	h, _ := newHub(t, Options{})
	users := make([]int, 50)
	queues := map[int]string{}
	for i := range users {
		users[i] = i + 1
		queues[i+1], _ = h.Register(QueueSpec{UserID: i + 1})
	}
	h.PublishEach(func(user int, _ Client) []Event {
		runtime.GC() // frees the previous user's map, whose address may serve this one's
		return []Event{{"type": "x", "user": user}}
	}, users...)
	for _, user := range users {
		if evs := fetch(t, h, user, queues[user], -1); len(evs) != 1 || evs[0]["user"] != user {
			t.Errorf("user %d got %v", user, evs)
		}
	}
}

// Clients that differ only where a plain rendering of them would look the same still get forms
// of their own.
func TestClientsThatLookAlikeAreApart(t *testing.T) {
	h, _ := newHub(t, Options{})
	narrows := [][][2]string{{{"a b", "c"}}, {{"a", "b c"}}}
	var queues []string
	for _, n := range narrows {
		q, _ := h.Register(QueueSpec{UserID: 1, Client: Client{Narrow: n}})
		queues = append(queues, q)
	}
	h.PublishEach(func(_ int, c Client) []Event { return []Event{{"type": "x", "narrow": c.Narrow[0][0]}} }, 1)
	for i, q := range queues {
		if evs := fetch(t, h, 1, q, -1); len(evs) != 1 || evs[0]["narrow"] != narrows[i][0][0] {
			t.Errorf("the queue of narrow %v got %v", narrows[i], evs)
		}
	}
}

// TestHubIdle: the hub is idle exactly while it holds no queue.
func TestHubIdle(t *testing.T) {
	h, _ := newHub(t, Options{})
	if !h.Idle() {
		t.Fatal("a new hub is not idle")
	}
	id, _ := h.Register(QueueSpec{UserID: 1})
	if h.Idle() {
		t.Fatal("a hub with a queue is idle")
	}
	if err := h.Delete(1, id); err != nil {
		t.Fatal(err)
	}
	if !h.Idle() {
		t.Fatal("a hub whose only queue is deleted is not idle")
	}
}
