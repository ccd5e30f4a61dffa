package harness

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// fakeQueues is the test fake's event system: one queue per POST
// /register, filled by emit and by direct messages, read with GET /events
// (long-polling, heartbeats) and removed with DELETE /events, in the real
// server's shapes. Its fields are guarded by the fake's mutex, which the
// fake holds while it serves a request; a long poll waits on cond, which
// releases it.
type fakeQueues struct {
	cond *sync.Cond
	byID map[string]*fakeQueue
	seq  int

	// Knobs.
	heartbeatAfter time.Duration // how long a poll waits before a heartbeat
	dropMessages   bool          // direct messages emit no events (fences never arrive)
	// onMessage runs (lock held) after a direct message's events.
	onMessage func(m url_values)

	// What the fake saw.
	registered []string // event_types of each POST /register, "" when absent
	polls      []url.Values
	heartbeats int
	deleted    []string
}

type fakeQueue struct {
	id     string
	user   int
	types  []string // nil: all
	events []map[string]any
	nextID int
}

func (q *fakeQueues) init(mu *sync.Mutex) {
	q.cond = sync.NewCond(mu)
	q.byID = map[string]*fakeQueue{}
	q.heartbeatAfter = 100 * time.Millisecond
}

// wake makes waiting polls look again; call it without the lock.
func (f *testFake) wake() {
	f.mu.Lock()
	f.queues.cond.Broadcast()
	f.mu.Unlock()
}

// registerQueue creates the queue of a POST /register (lock held) and
// returns the fields the response adds.
func (f *testFake) registerQueue(r *http.Request, me *fakeUser) map[string]any {
	q := &f.queues
	q.seq++
	queue := &fakeQueue{id: "queue-" + strconv.Itoa(q.seq), user: me.ID}
	raw := r.FormValue("event_types")
	q.registered = append(q.registered, raw)
	if raw != "" {
		queue.types = []string{}
		_ = json.Unmarshal([]byte(raw), &queue.types)
	}
	q.byID[queue.id] = queue
	return map[string]any{"queue_id": queue.id, "last_event_id": -1}
}

// emit delivers an event to every queue of the users that takes its type.
func (f *testFake) emit(ev map[string]any, userIDs ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.emitLocked(ev, userIDs...)
}

func (f *testFake) emitLocked(ev map[string]any, userIDs ...int) {
	typ, _ := ev["type"].(string)
	for _, queue := range f.queues.byID {
		if !slices.Contains(userIDs, queue.user) || (queue.types != nil && !slices.Contains(queue.types, typ)) {
			continue
		}
		copied := map[string]any{"id": queue.nextID}
		for k, v := range ev {
			copied[k] = v
		}
		queue.nextID++
		queue.events = append(queue.events, copied)
	}
	f.queues.cond.Broadcast()
}

// messageEvents emits the message event of a direct message to its
// recipients and sender (lock held), content rendered as HTML.
func (f *testFake) messageEvents(me *fakeUser, m url_values, id int) {
	if m["type"] != "direct" || f.queues.dropMessages {
		return
	}
	var to []int
	_ = json.Unmarshal([]byte(m["to"]), &to)
	f.emitLocked(map[string]any{
		"type": "message",
		"message": map[string]any{
			"id": id, "type": "private", "sender_id": me.ID,
			"content": "<p>" + html.EscapeString(m["content"]) + "</p>",
		},
		"flags": []string{},
	}, append(to, me.ID)...)
	if f.queues.onMessage != nil {
		f.queues.onMessage(m)
	}
}

func (f *testFake) routeEvents(mux *http.ServeMux) {
	q := &f.queues
	badQueue := func(w http.ResponseWriter, id string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		_ = json.NewEncoder(w).Encode(map[string]any{"result": "error", "code": "BAD_EVENT_QUEUE_ID",
			"msg": "Bad event queue ID: " + id, "queue_id": id})
	}
	mux.HandleFunc("GET /api/v1/events", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		params := r.URL.Query()
		q.polls = append(q.polls, params)
		id := params.Get("queue_id")
		last, err := strconv.Atoi(params.Get("last_event_id"))
		if err != nil {
			fail(w, 400, "BAD_REQUEST", "Invalid last_event_id")
			return
		}
		deadline := time.Now().Add(q.heartbeatAfter)
		timer := time.AfterFunc(q.heartbeatAfter, f.wake)
		defer timer.Stop()
		stop := context.AfterFunc(r.Context(), f.wake) // the client went away
		defer stop()
		for {
			queue := q.byID[id]
			if queue == nil || queue.user != me.ID {
				badQueue(w, id)
				return
			}
			// Events up to last_event_id are acknowledged.
			queue.events = slices.DeleteFunc(queue.events, func(ev map[string]any) bool { return ev["id"].(int) <= last })
			if len(queue.events) > 0 || params.Get("dont_block") == "true" {
				success(w, map[string]any{"events": queue.events, "queue_id": id})
				return
			}
			if r.Context().Err() != nil {
				return
			}
			if !time.Now().Before(deadline) {
				q.heartbeats++
				hb := map[string]any{"type": "heartbeat", "id": queue.nextID}
				queue.nextID++
				success(w, map[string]any{"events": []any{hb}, "queue_id": id})
				return
			}
			q.cond.Wait()
		}
	}))
	mux.HandleFunc("DELETE /api/v1/events", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		// Go parses no form body for DELETE; the real server does.
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		id := form.Get("queue_id")
		if queue := q.byID[id]; queue == nil || queue.user != me.ID {
			badQueue(w, id)
			return
		}
		delete(q.byID, id)
		q.deleted = append(q.deleted, id)
		q.cond.Broadcast()
		success(w, nil)
	}))
}

var _ = Describe("event listener", func() {
	var (
		fake   *testFake
		tgt    *Target
		rec    *recorder
		member int
	)
	BeforeEach(func() {
		fake, tgt = connectToTestFake()
		rec = &recorder{}
		tgt.Reporter = rec
		member = tgt.Users[Member].ID
	})

	sub := func(op, property string, value any) map[string]any {
		return map[string]any{"type": "subscription", "op": op, "property": property, "value": value, "stream_id": 101}
	}
	// lastFence is the content of the last fence message the fake received.
	lastFence := func() url_values {
		GinkgoHelper()
		fake.mu.Lock()
		defer fake.mu.Unlock()
		Expect(fake.messages).NotTo(BeEmpty())
		return fake.messages[len(fake.messages)-1]
	}
	// oneFailure returns the only failure recorded since the last call.
	oneFailure := func() string {
		GinkgoHelper()
		f := rec.take()
		Expect(f).To(HaveLen(1), "failures: %q", f)
		return f[0]
	}

	It("passes on exactly the expected events, in order, and returns them unmodified", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		Expect(fake.queues.registered[len(fake.queues.registered)-1]).To(Equal(`["subscription","message"]`))

		fake.emit(sub("update", "is_muted", true), member)
		fake.emit(sub("update", "in_home_view", false), member)
		fake.emit(sub("update", "is_muted", false), tgt.Users[Admin].ID) // someone else's

		got := l.ExpectEvents(15*time.Second,
			Event(map[string]any{"type": "subscription", "op": "update", "property": "is_muted", "value": true}),
			Event(map[string]any{"property": "in_home_view", "value": false, "stream_id": 101}),
		)
		Expect(rec.take()).To(BeEmpty())
		Expect(got).To(Equal([]map[string]any{
			{"id": 0.0, "type": "subscription", "op": "update", "property": "is_muted", "value": true, "stream_id": 101.0},
			{"id": 1.0, "type": "subscription", "op": "update", "property": "in_home_view", "value": false, "stream_id": 101.0},
		}))

		fence := lastFence()
		Expect(fence["type"]).To(Equal("direct"))
		Expect(fence["to"]).To(Equal("[" + strconv.Itoa(member) + "]"))
		Expect(fence["sender"]).To(Equal(strconv.Itoa(member)))
		Expect(fence["content"]).To(MatchRegexp(`chatconformfence[a-z0-9]+n1z$`))

		first := fake.queues.polls[0]
		Expect(first.Get("queue_id")).To(Equal(l.QueueID()))
		Expect(first.Get("last_event_id")).To(Equal("-1"))
		Expect(first.Get("dont_block")).To(Equal("false"))
	})

	It("observes only events about the spec's objects and of the types asked for", func() {
		l := tgt.Listen(tgt.User(Member), "subscription").AboutField("stream_id", 101)
		fake.emit(map[string]any{"type": "subscription", "op": "peer_add", "stream_ids": []int{7}, "user_ids": []int{9}}, member)
		fake.emit(sub("update", "is_muted", true), member)
		fake.emit(map[string]any{"type": "subscription", "op": "update", "property": "is_muted", "value": true, "stream_id": 7}, member)
		fake.emit(map[string]any{"type": "not_known_to_the_suite", "stream_id": 101}, member)
		fake.emit(map[string]any{"type": "stream", "op": "create", "stream_id": 101}, member)
		got := l.ExpectEvents(15*time.Second, Event(map[string]any{"type": "subscription", "property": "is_muted", "stream_id": 101}))
		Expect(rec.take()).To(BeEmpty())
		Expect(got).To(HaveLen(1))
	})

	It("asks for all event types when none are given", func() {
		l := tgt.Listen(tgt.User(Member))
		Expect(fake.queues.registered[len(fake.queues.registered)-1]).To(BeEmpty())
		fake.emit(map[string]any{"type": "presence", "user_id": 5}, member)
		l.ExpectEvents(15*time.Second, Event(map[string]any{"type": "presence", "user_id": 5}))
		Expect(rec.take()).To(BeEmpty())
	})

	It("accepts any Gomega matcher as an expected event", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		fake.emit(sub("add", "", nil), member)
		l.ExpectEvents(15*time.Second, HaveKeyWithValue("op", "add"))
		Expect(rec.take()).To(BeEmpty())

		fake.emit(sub("remove", "", nil), member)
		l.ExpectEvents(15*time.Second, HaveKeyWithValue("op", "add"))
		msg := oneFailure()
		Expect(msg).To(ContainSubstring("HaveKeyWithValueMatcher"))
		Expect(msg).To(ContainSubstring("op=remove"))
	})

	It("fails on a missing event, listing what was expected and received", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		fake.emit(sub("update", "is_muted", true), member)
		start := time.Now()
		got := l.ExpectEvents(300*time.Millisecond,
			Event(map[string]any{"type": "subscription", "property": "is_muted"}),
			Event(map[string]any{"type": "subscription", "property": "in_home_view"}),
		)
		Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second), "no wait much past the deadline")
		Expect(got).To(HaveLen(1))
		msg := oneFailure()
		for _, want := range []string{
			"event queue " + l.QueueID(), tgt.Users[Member].Email, "user " + strconv.Itoa(member),
			"expected 2 event(s)", "1. Event{type=subscription property=is_muted}",
			"received before the fence (1)", "1. id=0 type=subscription op=update",
			"2. missing: Event{type=subscription property=in_home_view}",
		} {
			Expect(msg).To(ContainSubstring(want))
		}
		Expect(msg).NotTo(ContainSubstring("chatconformfence"), "the fence is not an event")
	})

	It("fails on an extra event before the fence", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		fake.emit(sub("update", "is_muted", true), member)
		fake.emit(sub("update", "pin_to_top", true), member)
		got := l.ExpectEvents(15*time.Second, Event(map[string]any{"property": "is_muted"}))
		Expect(got).To(HaveLen(2))
		msg := oneFailure()
		Expect(msg).To(ContainSubstring("2. unexpected: id=1 type=subscription op=update property=pin_to_top"))
	})

	It("fails on the wrong order", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		fake.emit(sub("update", "in_home_view", false), member)
		fake.emit(sub("update", "is_muted", true), member)
		l.ExpectEvents(15*time.Second,
			Event(map[string]any{"property": "is_muted"}),
			Event(map[string]any{"property": "in_home_view"}),
		)
		msg := oneFailure()
		Expect(msg).To(ContainSubstring(`1. does not match: want Event{property=is_muted}: field "property" is in_home_view, want is_muted`))
		Expect(msg).To(ContainSubstring(`2. does not match: want Event{property=in_home_view}: field "property" is is_muted, want in_home_view`))
	})

	It("fails on a wrong field", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		fake.emit(sub("update", "is_muted", false), member)
		l.ExpectEvents(15*time.Second, Event(map[string]any{"property": "is_muted", "value": true}))
		Expect(oneFailure()).To(ContainSubstring(`field "value" is false, want true`))
	})

	It("ignores heartbeats and acknowledges them", func() {
		fake.queues.heartbeatAfter = 30 * time.Millisecond
		l := tgt.Listen(tgt.User(Member), "subscription")
		// The event comes once two heartbeats went out, however long the polls take (a fixed
		// 300 ms saw one heartbeat on a loaded machine).
		go func() {
			for {
				fake.mu.Lock()
				n := fake.queues.heartbeats
				fake.mu.Unlock()
				if n >= 2 {
					fake.emit(sub("add", "", nil), member)
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
		got := l.ExpectEvents(time.Minute, Event(map[string]any{"op": "add"}))
		Expect(rec.take()).To(BeEmpty())
		Expect(got).To(HaveLen(1))
		fake.mu.Lock()
		defer fake.mu.Unlock()
		Expect(fake.queues.heartbeats).To(BeNumerically(">=", 2))
		Expect(fake.queues.polls[1].Get("last_event_id")).To(Equal("0"), "the first heartbeat's id")
		Expect(got[0]["id"]).To(BeNumerically(">=", 2), "numbered after the heartbeats")
	})

	It("waits for late events without waiting for the heartbeat", func() {
		fake.queues.heartbeatAfter = 20 * time.Second
		l := tgt.Listen(tgt.User(Member), "subscription")
		time.AfterFunc(200*time.Millisecond, func() { fake.emit(sub("add", "", nil), member) })
		start := time.Now()
		l.ExpectEvents(15*time.Second, Event(map[string]any{"op": "add"}))
		Expect(rec.take()).To(BeEmpty())
		// Well short of the heartbeat's 20 s, with room for a loaded machine.
		Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second), "no wait for the heartbeat (20 s)")
	})

	It("stops waiting at the deadline with a request in flight", func() {
		fake.queues.heartbeatAfter = 20 * time.Second
		l := tgt.Listen(tgt.User(Member), "subscription")
		start := time.Now()
		l.ExpectEvents(300*time.Millisecond, Event(map[string]any{"op": "add"}))
		Expect(time.Since(start)).To(And(BeNumerically(">=", 300*time.Millisecond), BeNumerically("<", 10*time.Second)))
		Expect(oneFailure()).To(ContainSubstring("1. missing: Event{op=add}"))
		Expect(CurrentSpecReport().CapturedGinkgoWriterOutput).To(ContainSubstring("abandoned at the deadline"))
	})

	It("strips the fence and message events that were not asked for", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		tgt.SendDirect(tgt.User(Admin), []User{tgt.User(Member)}, "hello")
		fake.emit(sub("add", "", nil), member)
		got := l.ExpectEvents(15*time.Second, Event(map[string]any{"op": "add"}))
		Expect(rec.take()).To(BeEmpty())
		Expect(got).To(HaveLen(1))
		l.ExpectNoEvents(2 * time.Second)
		Expect(rec.take()).To(BeEmpty())
	})

	It("returns message events when asked for, without the fence", func() {
		for _, types := range [][]string{{"message"}, nil} {
			l := tgt.Listen(tgt.User(Member), types...)
			tgt.SendDirect(tgt.User(Admin), []User{tgt.User(Member)}, "hello *there*")
			got := l.ExpectEvents(15*time.Second, Event(map[string]any{
				"type":    "message",
				"message": map[string]any{"sender_id": tgt.Users[Admin].ID, "content": "<p>hello *there*</p>"},
			}))
			Expect(rec.take()).To(BeEmpty(), "types %v", types)
			Expect(got).To(HaveLen(1))
			Expect(lastFence()["content"]).To(ContainSubstring("chatconformfence"))
		}
	})

	It("passes ExpectNoEvents on a quiet queue and fails it on an event", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		l.ExpectNoEvents(2 * time.Second)
		Expect(rec.take()).To(BeEmpty())

		fake.emit(sub("remove", "", nil), member)
		l.ExpectNoEvents(2 * time.Second)
		msg := oneFailure()
		Expect(msg).To(ContainSubstring("expected no events"))
		Expect(msg).To(ContainSubstring("1. unexpected: id=1 type=subscription op=remove"))
		Expect(lastFence()["content"]).To(HaveSuffix("n2z"), "one fence per call")
	})

	It("collects whatever arrived before the fence without asserting on it", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		Expect(l.Collect(2 * time.Second)).To(BeEmpty())
		fake.emit(sub("update", "pin_to_top", true), member)
		fake.emit(sub("remove", "", nil), member)
		got := l.Collect(2 * time.Second)
		Expect(rec.take()).To(BeEmpty(), "Collect asserts nothing")
		Expect(got).To(HaveLen(2))
		Expect(got[0]).To(HaveKeyWithValue("property", "pin_to_top"))
		Expect(got[1]).To(HaveKeyWithValue("op", "remove"))
		Expect(lastFence()["content"]).To(HaveSuffix("n2z"), "one fence per call")
		l.ExpectNoEvents(2 * time.Second)
		Expect(rec.take()).To(BeEmpty(), "the collected events were consumed")

		fake.queues.dropMessages = true
		l.Collect(300 * time.Millisecond)
		Expect(oneFailure()).To(ContainSubstring("did not arrive within 300ms"))
	})

	It("awaits a late event without fencing, and leaves it to the next call", func() {
		fake.queues.heartbeatAfter = 20 * time.Second
		l := tgt.Listen(tgt.User(Member), "subscription")
		isAdd := func(ev map[string]any) bool { return ev["op"] == "add" }
		sent := func() int {
			fake.mu.Lock()
			defer fake.mu.Unlock()
			return len(fake.messages)
		}
		before := sent()
		fake.emit(sub("update", "pin_to_top", true), member)
		time.AfterFunc(200*time.Millisecond, func() { fake.emit(sub("add", "", nil), member) })
		start := time.Now()
		Expect(l.Await(15*time.Second, isAdd)).To(BeTrue())
		Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second), "no wait for the heartbeat (20 s)")
		Expect(sent()).To(Equal(before), "Await sends no fence")
		got := l.Collect(2 * time.Second)
		Expect(rec.take()).To(BeEmpty())
		Expect(got).To(HaveLen(2), "both events, left to Collect")

		start = time.Now()
		Expect(l.Await(300*time.Millisecond, isAdd)).To(BeFalse(), "no other add came")
		Expect(time.Since(start)).To(And(BeNumerically(">=", 300*time.Millisecond), BeNumerically("<", 10*time.Second)))
		Expect(rec.take()).To(BeEmpty(), "Await asserts nothing")
	})

	It("keeps events that arrive after the fence for the next call", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		fake.queues.onMessage = func(url_values) {
			fake.queues.onMessage = nil
			fake.emitLocked(sub("update", "color", "#fff"), member)
		}
		fake.emit(sub("add", "", nil), member)
		l.ExpectEvents(15*time.Second, Event(map[string]any{"op": "add"}))
		Expect(rec.take()).To(BeEmpty())
		l.ExpectEvents(15*time.Second, Event(map[string]any{"property": "color", "value": "#fff"}))
		Expect(rec.take()).To(BeEmpty())
		l.ExpectNoEvents(2 * time.Second)
		Expect(rec.take()).To(BeEmpty())
	})

	It("fails when the fence does not arrive", func() {
		fake.queues.dropMessages = true
		l := tgt.Listen(tgt.User(Member), "subscription")
		fake.emit(sub("add", "", nil), member)
		l.ExpectNoEvents(300 * time.Millisecond)
		msg := oneFailure()
		Expect(msg).To(ContainSubstring("the fence (a direct message from the user to itself"))
		Expect(msg).To(ContainSubstring("did not arrive within 300ms"))
		Expect(msg).To(ContainSubstring("received so far (1):\n    1. id=0 type=subscription op=add"))
	})

	It("fails with context on BAD_EVENT_QUEUE_ID and then stays quiet", func() {
		l := tgt.Listen(tgt.User(Member), "subscription")
		fake.mu.Lock()
		delete(fake.queues.byID, l.QueueID()) // the server expired it
		fake.mu.Unlock()
		l.ExpectEvents(15*time.Second, Event(map[string]any{"op": "add"}))
		msg := oneFailure()
		for _, want := range []string{
			"polling event queue " + l.QueueID(), tgt.Users[Member].Email, "HTTP 400", "BAD_EVENT_QUEUE_ID",
			`"Bad event queue ID: ` + l.QueueID() + `"`, `response: {"code":"BAD_EVENT_QUEUE_ID"`,
		} {
			Expect(msg).To(ContainSubstring(want))
		}
		l.ExpectNoEvents(time.Second)
		Expect(rec.take()).To(BeEmpty())
	})

	It("fails with context when registration fails", func() {
		stranger := User{Role: Member, ID: 99, Email: "stranger@chat.example.test", APIKey: WrongAPIKey}
		l := tgt.Listen(stranger, "subscription")
		msg := oneFailure()
		Expect(msg).To(ContainSubstring("registering an event queue as stranger@chat.example.test (user 99, the member) for event types subscription"))
		Expect(msg).To(ContainSubstring("UNAUTHORIZED"))
		Expect(msg).NotTo(ContainSubstring(WrongAPIKey))
		Expect(l.ExpectEvents(time.Second, Event(map[string]any{}))).To(BeNil())
		Expect(rec.take()).To(BeEmpty())
	})

	It("listens as any user", func() {
		u := tgt.NewUser(Guest)
		l := tgt.Listen(u, "subscription")
		fake.emit(sub("add", "", nil), u.ID)
		l.ExpectEvents(15*time.Second, Event(map[string]any{"op": "add"}))
		Expect(rec.take()).To(BeEmpty())
		Expect(lastFence()["to"]).To(Equal("[" + strconv.Itoa(u.ID) + "]"))
	})

	It("deletes the queue when the spec ends", func() {
		var id string
		// Registered first, so it runs after the listener's cleanup (LIFO).
		DeferCleanup(func() {
			Expect(fake.queues.deleted).To(ContainElement(id))
			Expect(fake.queues.byID).NotTo(HaveKey(id))
		})
		id = tgt.Listen(tgt.User(Member), "subscription").QueueID()
		Expect(fake.queues.byID).To(HaveKey(id))
	})

	It("logs its requests without credentials", func() {
		l := tgt.Listen(tgt.User(Bot), "subscription")
		l.ExpectNoEvents(2 * time.Second)
		Expect(rec.take()).To(BeEmpty())
		out := CurrentSpecReport().CapturedGinkgoWriterOutput
		Expect(out).To(ContainSubstring("--> POST " + tgt.URL + "/api/v1/register"))
		Expect(out).To(ContainSubstring("--> GET " + tgt.URL + "/api/v1/events?dont_block=false&last_event_id=-1&queue_id=" + l.QueueID()))
		Expect(out).To(ContainSubstring("Authorization: Basic " + tgt.Users[Bot].Email + ":****"))
		Expect(out).To(ContainSubstring("X-Chatconform-Spec: " + CurrentSpecReport().FullText()))
		for _, u := range tgt.Users {
			Expect(out).NotTo(ContainSubstring(u.APIKey))
		}
	})
})
