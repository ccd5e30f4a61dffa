package harness

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega/types"
)

// Listener is an event queue of the target, registered as one user, that a
// spec opens before it acts and asserts on afterwards (GET /events,
// reference sheet section 3). It proves "nothing else is pending" without
// sleeping by fencing the queue: the listener's user sends itself a direct
// message with a unique marker, and the events that precede that message in
// the queue are the ones observed. A Listener belongs to one spec and one
// goroutine.
type Listener struct {
	t    *Target
	user User
	// types are the event types the spec asked for; none means all.
	types []string
	// wantsMessages is false when the spec asked for types without
	// "message": the queue gets message events only for the fence, and the
	// listener drops them all.
	wantsMessages bool

	queueID string
	lastID  int // highest event id seen (-1 before any)

	// fencePrefix starts every fence marker of this listener; fences counts
	// the fences sent.
	fencePrefix string
	fences      int

	// buf holds events received (heartbeats excluded) that no Expect call
	// has consumed yet, in queue order: those that arrived after the last
	// fence, or while waiting for the next one.
	buf []map[string]any

	// broken is set after a failure that leaves the queue unusable (no
	// queue, a poll error), so later calls do not pile up failures.
	broken bool

	// about, when set, says which events concern the spec (its channel, its
	// messages, its users); the others are never observed (see About).
	about func(ev map[string]any) bool
}

// About makes the listener observe only the events for which keep is true:
// on a shared server other users' activity puts events into any queue, and a
// spec must look only at events about the objects it created. It returns l.
func (l *Listener) About(keep func(ev map[string]any) bool) *Listener {
	l.about = keep
	return l
}

// AboutField is About for events whose field key equals value (numbers compared
// as numbers), for example AboutField("stream_id", ch.ID).
func (l *Listener) AboutField(key string, value any) *Listener {
	return l.About(func(ev map[string]any) bool {
		return len(valueMismatches(key, value, ev[key])) == 0
	})
}

// heartbeat is the type of the keep-alive events servers send to a
// long-polling client; they never count.
const heartbeat = "heartbeat"

// Listen registers an event queue as u (POST /register, with event_types as
// a JSON list when given — plus "message", for the fence — and all types when
// none) and deletes it (DELETE /events) when the spec ends. Failure fails the
// spec.
func (t *Target) Listen(u User, eventTypes ...string) *Listener {
	ginkgo.GinkgoHelper()
	l := &Listener{
		t:             t,
		user:          u,
		types:         slices.Clone(eventTypes),
		wantsMessages: len(eventTypes) == 0 || slices.Contains(eventTypes, "message"),
		lastID:        -1,
		fencePrefix:   "chatconformfence" + randomToken(10),
	}
	params := url.Values{}
	if len(eventTypes) > 0 {
		registered := slices.Clone(eventTypes)
		if !l.wantsMessages {
			registered = append(registered, "message")
		}
		params.Set("event_types", jsonParam(registered))
	}
	obj, err := t.api("POST", "/register", &u, params)
	if err != nil {
		l.broken = true
		l.fail(fmt.Sprintf("harness: registering an event queue as %s for %s: %v", l.who(), l.typesText(), err))
		return l
	}
	var ok bool
	if l.queueID, ok = obj.string("queue_id"); !ok || l.queueID == "" {
		l.broken = true
		l.fail(fmt.Sprintf("harness: POST /register as %s returned no queue_id string", l.who()))
		return l
	}
	if id, ok := obj.int("last_event_id"); ok {
		l.lastID = id
	}
	queueID := l.queueID
	ginkgo.DeferCleanup(func() {
		// Best effort: the server may have expired the queue already.
		_, _ = t.api("DELETE", "/events", &u, url.Values{"queue_id": {queueID}})
	})
	return l
}

// StateOf returns the success body of POST /register as u, with the state of the given
// fetch_event_types (all state when none is given), and deletes the queue the
// registration made at once (DELETE /events): for specs that read a user's state, not
// events, without leaving queues behind on the server.
func (t *Target) StateOf(u User, fetchEventTypes ...string) *httpexpect.Object {
	ginkgo.GinkgoHelper()
	req := t.As(u).POST("/register")
	if len(fetchEventTypes) > 0 {
		req = req.WithFormField("fetch_event_types", jsonParam(fetchEventTypes))
	}
	state := Success(req.Expect())
	if queueID, ok := state.Raw()["queue_id"].(string); ok && queueID != "" {
		// Best effort: the state is read; a queue the server already dropped is no matter.
		_, _ = t.api("DELETE", "/events", &u, url.Values{"queue_id": {queueID}})
	}
	return state
}

// QueueID returns the id of the listener's queue ("" if registration
// failed).
func (l *Listener) QueueID() string { return l.queueID }

// ExpectEvents waits until the queue has delivered len(want) events
// (heartbeats, fence messages and — when "message" was not asked for —
// message events never count) or within passes, then fences the queue and
// asserts that the events received before the fence are exactly want, in
// order: want[i] matches the i-th event. The fence gets its own within to
// arrive, so a failing call may take up to twice within. Events that
// arrive after the fence are kept for the next call. It returns the events
// received before the fence, unmodified (with their "id"), for further
// checks.
func (l *Listener) ExpectEvents(within time.Duration, want ...types.GomegaMatcher) []map[string]any {
	ginkgo.GinkgoHelper()
	return l.expect(within, want)
}

// ExpectNoEvents fences the queue and asserts that nothing but the fence
// (and heartbeats, and message events when "message" was not asked for)
// arrived before it; within bounds the wait for the fence.
func (l *Listener) ExpectNoEvents(within time.Duration) {
	ginkgo.GinkgoHelper()
	l.expect(within, nil)
}

// Collect fences the queue and returns the events received before the fence
// (heartbeats, fence messages and — when "message" was not asked for —
// message events left out), asserting nothing about them; within bounds the
// wait for the fence. It is for specs that check what must not be among the
// events of a queue that may also receive unrelated ones. Events that arrive
// after the fence are kept for the next call.
func (l *Listener) Collect(within time.Duration) []map[string]any {
	ginkgo.GinkgoHelper()
	if l.broken {
		return nil
	}
	got, _ := l.fence(within, "\n  collecting the events before it")
	return got
}

// Await polls the queue, sending no fence, until an observable event for which match is true
// has arrived or within passes, and reports whether one did; the events stay buffered for the
// next Expect or Collect call. It is for an event a server may send late (the real server
// announces presence from a queue worker, possibly after a fence): awaited once, then fenced
// once, rather than fenced again and again, a direct message each time.
func (l *Listener) Await(within time.Duration, match func(ev map[string]any) bool) bool {
	ginkgo.GinkgoHelper()
	deadline := time.Now().Add(within)
	for !l.broken {
		if slices.ContainsFunc(l.observable(l.buf), match) {
			return true
		}
		if !time.Now().Before(deadline) || !l.poll(deadline) {
			return false
		}
	}
	return false
}

func (l *Listener) expect(within time.Duration, want []types.GomegaMatcher) []map[string]any {
	ginkgo.GinkgoHelper()
	if l.broken {
		return nil
	}
	start := time.Now()
	deadline := start.Add(within)
	for len(want) > 0 && l.countObservable(l.buf) < len(want) && time.Now().Before(deadline) {
		if !l.poll(deadline) {
			return l.observable(l.buf)
		}
	}

	got, ok := l.fence(within, l.wantText(want))
	if !ok {
		return got
	}
	if problems := compare(want, got); len(problems) > 0 {
		l.fail(fmt.Sprintf("harness: event queue %s of %s (%s), fenced after %s:%s\n%s\n  mismatches:\n%s",
			l.queueID, l.who(), l.typesText(), time.Since(start).Round(time.Millisecond), l.wantText(want),
			receivedText(got, "received before the fence"), indent(strings.Join(problems, "\n"), "    ")))
	}
	return got
}

// fence sends a fence and waits up to within for it; it returns the events
// received before it, consuming them, and true; or, when the fence did not
// arrive (a failure, reported with purpose, what the caller wanted) or could
// not be sent, what was received so far and false.
func (l *Listener) fence(within time.Duration, purpose string) ([]map[string]any, bool) {
	ginkgo.GinkgoHelper()
	marker, ok := l.sendFence()
	if !ok {
		return l.observable(l.buf), false
	}
	deadline := time.Now().Add(within)
	at := l.fenceIndex(marker)
	for at < 0 && time.Now().Before(deadline) {
		if !l.poll(deadline) {
			return l.observable(l.buf), false
		}
		at = l.fenceIndex(marker)
	}
	if at < 0 {
		got := l.observable(l.buf)
		l.fail(fmt.Sprintf("harness: event queue %s of %s: the fence (a direct message from the user to itself, content %q) did not arrive within %s of being sent%s\n%s",
			l.queueID, l.who(), marker, within, purpose, receivedText(got, "received so far")))
		// The events stay buffered: the fence may still come.
		return got, false
	}
	got := l.observable(l.buf[:at])
	l.buf = slices.Clone(l.buf[at+1:])
	return got, true
}

// compare lists how got differs from want, position by position.
func compare(want []types.GomegaMatcher, got []map[string]any) []string {
	var problems []string
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(got):
			problems = append(problems, fmt.Sprintf("%d. missing: %s", i+1, describeMatcher(want[i])))
		case i >= len(want):
			problems = append(problems, fmt.Sprintf("%d. unexpected: %s", i+1, describeEvent(got[i])))
		default:
			ok, err := want[i].Match(got[i])
			if err != nil {
				problems = append(problems, fmt.Sprintf("%d. matcher error: %v", i+1, err))
			} else if !ok {
				problems = append(problems, fmt.Sprintf("%d. does not match: %s", i+1, clip(mismatchText(want[i], got[i]), 1500)))
			}
		}
	}
	return problems
}

// mismatchText is the matcher's own explanation, short for Event matchers.
func mismatchText(m types.GomegaMatcher, ev map[string]any) string {
	if em, ok := m.(*eventMatcher); ok {
		return fmt.Sprintf("want %s: %s", describeMatcher(em), strings.Join(em.mismatches(ev), "; "))
	}
	return m.FailureMessage(ev)
}

// poll makes one GET /events request bounded by deadline and buffers what
// it returns. It returns false after failing the spec on an error; a
// request still in flight at the deadline is abandoned, which is not an
// error.
func (l *Listener) poll(deadline time.Time) bool {
	ginkgo.GinkgoHelper()
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	params := url.Values{
		"queue_id":      {l.queueID},
		"last_event_id": {strconv.Itoa(l.lastID)},
		"dont_block":    {"false"},
	}
	r, err := l.t.longPoll(ctx, "/events", &l.user, params)
	obj, raw := r.obj, r.raw
	if errors.Is(err, errDeadline) {
		return true
	}
	if err != nil {
		return l.pollFailed(err.Error(), raw)
	}
	list, ok := obj["events"].([]any)
	if !ok {
		return l.pollFailed("GET /api/v1/events: the response has no events list", raw)
	}
	for _, item := range list {
		ev, ok := item.(map[string]any)
		if !ok {
			return l.pollFailed(fmt.Sprintf("GET /api/v1/events: event %s is not an object", clip(compactJSON(item), 200)), raw)
		}
		id, ok := object(ev).int("id")
		if !ok {
			return l.pollFailed(fmt.Sprintf("GET /api/v1/events: event without an integer id: %s", describeEvent(ev)), raw)
		}
		l.lastID = max(l.lastID, id)
		if ev["type"] == heartbeat {
			continue
		}
		l.buf = append(l.buf, ev)
	}
	return true
}

func (l *Listener) pollFailed(what string, raw []byte) bool {
	ginkgo.GinkgoHelper()
	l.broken = true
	msg := fmt.Sprintf("harness: polling event queue %s of %s (last_event_id %d): %s", l.queueID, l.who(), l.lastID, what)
	if len(raw) > 0 {
		msg += "\n  response: " + clip(strings.TrimSpace(string(raw)), 1000)
	}
	l.fail(msg + "\n" + receivedText(l.observable(l.buf), "received so far"))
	return false
}

// sendFence sends the listener's user a direct message to itself with a
// new marker of letters and digits only, which Markdown leaves intact.
func (l *Listener) sendFence() (string, bool) {
	ginkgo.GinkgoHelper()
	l.fences++
	marker := l.fencePrefix + "n" + strconv.Itoa(l.fences) + "z"
	_, err := l.t.api("POST", "/messages", &l.user, url.Values{
		"type":    {l.t.DirectMessageType()},
		"to":      {jsonParam([]int{l.user.ID})},
		"content": {"chatconform event fence " + marker},
	})
	if err != nil {
		l.broken = true
		l.fail(fmt.Sprintf("harness: fencing event queue %s: sending a direct message from %s to itself: %v", l.queueID, l.who(), err))
		return "", false
	}
	return marker, true
}

// fenceIndex is the position in buf of the fence with marker, or -1.
func (l *Listener) fenceIndex(marker string) int {
	return slices.IndexFunc(l.buf, func(ev map[string]any) bool { return isFence(ev, marker) })
}

// isFence reports whether ev is a message event whose content holds
// marker (in plain or rendered content).
func isFence(ev map[string]any, marker string) bool {
	if ev["type"] != "message" {
		return false
	}
	msg, _ := ev["message"].(map[string]any)
	content, _ := msg["content"].(string)
	return strings.Contains(content, marker)
}

// observable drops the events a spec never sees: fences of this listener
// (including late ones of earlier calls); when the spec did not ask for
// "message", every message event; events of a type the spec did not ask for
// (a server may send more than the types registered, or types the suite does
// not know); and events not about the spec's objects (About).
func (l *Listener) observable(evs []map[string]any) []map[string]any {
	out := []map[string]any{}
	for _, ev := range evs {
		if isFence(ev, l.fencePrefix) || (!l.wantsMessages && ev["type"] == "message") {
			continue
		}
		if t, _ := ev["type"].(string); len(l.types) > 0 && !slices.Contains(l.types, t) {
			continue
		}
		if l.about != nil && !l.about(ev) {
			continue
		}
		out = append(out, ev)
	}
	return out
}

func (l *Listener) countObservable(evs []map[string]any) int { return len(l.observable(evs)) }

// who names the listener's user for failure messages.
func (l *Listener) who() string {
	s := l.user.Email
	if s == "" {
		s = "<no email>"
	}
	s += fmt.Sprintf(" (user %d", l.user.ID)
	if l.user.Role != "" {
		s += ", the " + string(l.user.Role)
	}
	return s + ")"
}

func (l *Listener) typesText() string {
	if len(l.types) == 0 {
		return "all event types"
	}
	return "event types " + strings.Join(l.types, ", ")
}

func (l *Listener) wantText(want []types.GomegaMatcher) string {
	if len(want) == 0 {
		return "\n  expected no events"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n  expected %d event(s):", len(want))
	for i, m := range want {
		fmt.Fprintf(&b, "\n    %d. %s", i+1, describeMatcher(m))
	}
	return b.String()
}

// fail reports a failure to the target's Reporter (tests of the harness)
// or fails the spec, credentials redacted.
func (l *Listener) fail(msg string) {
	ginkgo.GinkgoHelper()
	msg = RedactText(msg)
	if l.t.Reporter != nil {
		l.t.Reporter.Errorf("%s", msg)
		return
	}
	ginkgo.Fail(msg)
}

func receivedText(evs []map[string]any, what string) string {
	if len(evs) == 0 {
		return "  " + what + ": none"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  %s (%d):", what, len(evs))
	for i, ev := range evs {
		fmt.Fprintf(&b, "\n    %d. %s", i+1, describeEvent(ev))
	}
	return b.String()
}

// randomToken returns n random lower-case letters and digits.
func randomToken(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("harness: no randomness for a token: " + err.Error())
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// errDeadline marks a long poll abandoned at its deadline.
var errDeadline = errors.New("deadline passed with the request in flight")

// longPoll sends GET path (under /api/v1) as u, bounded by ctx instead of the client
// timeout, because a server holds an event poll open for up to ~50 s.
func (t *Target) longPoll(ctx context.Context, path string, u *User, params url.Values) (reply, error) {
	// The same pool and rate-limit handling as the target's client, without its timeout.
	client := &http.Client{Transport: newRetryTransport(t.baseTransport(), 0, t.logWriter)}
	return t.exchange(ctx, client, http.MethodGet, t.URL+"/api/v1"+path, u, params)
}
