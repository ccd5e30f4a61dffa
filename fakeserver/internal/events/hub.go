package events

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Defaults of the hub's timing, used where Options leaves a field zero.
const (
	// DefaultPollTimeout is how long a blocking fetch waits before it is answered with a
	// heartbeat. The real server waits 45 to 55 seconds; the fake is quicker so that a test
	// that long-polls an idle queue does not stall for a minute.
	DefaultPollTimeout = 10 * time.Second
	// DefaultIdleTimeout is how long a queue lives, in virtual time, after its client last
	// touched it: the real server's DEFAULT_EVENT_QUEUE_TIMEOUT_SECS.
	DefaultIdleTimeout = 10 * time.Minute
	// DefaultMaxQueuesPerUser bounds the queues one user can hold. The real server has no
	// such bound because its queues expire in real time; the fake's clock stands still
	// unless a test moves it, so without a bound abandoned queues would pile up forever.
	DefaultMaxQueuesPerUser = 1000
	// DefaultMaxEvents bounds the events one queue holds unacknowledged: a queue nobody
	// polls would otherwise grow with every event of the realm.
	DefaultMaxEvents = 10000
	// DefaultMaxEventsPerUser bounds the events all of one user's queues hold unacknowledged:
	// without it a user's thousand queues could hold ten million.
	DefaultMaxEventsPerUser = 50000
	// DefaultIdleWallTimeout is how long, in real time, a queue lives after its client last
	// touched it, whatever the virtual clock says: the real server's queues expire in real
	// time, and a fake whose clock stands still must not keep abandoned queues forever.
	DefaultIdleWallTimeout = 10 * time.Minute
)

// Options configures a Hub. Zero fields take the defaults above.
type Options struct {
	// PollTimeout is the real time a blocking fetch waits before a heartbeat.
	PollTimeout time.Duration
	// IdleTimeout is the virtual time after which a queue nobody polls is dropped.
	IdleTimeout time.Duration
	// MaxQueuesPerUser is how many queues one user and their bots (QueueSpec.Holder) may
	// hold; registering one more drops their least recently used queue that no fetch is
	// waiting on.
	MaxQueuesPerUser int
	// MaxEvents is how many unacknowledged events a queue may hold; a queue that would hold
	// more is dropped (its client gets BAD_EVENT_QUEUE_ID and registers again).
	MaxEvents int
	// MaxEventsPerUser is how many unacknowledged events all the queues of one user and their
	// bots may hold; beyond it their fullest queues are dropped until they hold no more.
	MaxEventsPerUser int
	// IdleWallTimeout is the real time after which a queue nobody polls is dropped.
	IdleWallTimeout time.Duration
}

// QueueSpec describes the queue a client registers.
type QueueSpec struct {
	UserID int
	// Holder is the account whose bounds the queue counts toward: a bot's owner, so that a
	// member's many bots do not multiply the per-user bounds; zero means UserID. A queue
	// keeps the holder it was registered with.
	Holder int
	// EventTypes are the event types the queue receives; nil means all. Heartbeats are
	// delivered whatever the list says, as on the real server.
	EventTypes []string
	// Client holds the client's options that shape its events.
	Client Client
}

// Hub is the fake's event system: every client's event queue, fed by Publish and read by
// Get. It implements Publisher and is safe for concurrent use. Its queue ids follow the real
// server's "<server generation>:<counter>" form, the generation being the hub's start time
// and the number of resets ("1700000000-2:1"): a test run gives the same ids every time,
// and no id handed out before a reset names a queue after it, so a poller left over from
// one test never consumes the next one's events.
type Hub struct {
	clock *clock.Clock
	gen   int64 // the "server generation": virtual time when the hub was made

	resets int // how many times Reset was called: part of the queue ids

	mu       sync.Mutex
	opts     Options
	queues   map[string]*queue
	byUser   map[int][]*queue // in registration order
	byHolder map[int][]*queue // the same, by the account whose bounds they count toward
	next     int              // last queue number handed out
	gcAt     time.Time        // virtual time of the last garbage collection
	gcWall   time.Time        // real time of the last garbage collection
	gcNeeded bool             // the idle timeout changed since then
	closed   bool             // Close was called: fetches no longer block
}

// queue is one client's event queue.
type queue struct {
	id         string
	userID     int
	holder     int
	types      map[string]bool // nil: all types
	client     Client
	clientKey  string    // client in a comparable form: queues alike get the same events
	events     []queued  // unacknowledged events, ids ascending
	nextID     int       // id of the next event
	pruned     int       // id of the newest acknowledged event, -1 when none
	lastAccess time.Time // virtual time the client last registered or fetched
	lastWall   time.Time // real time of the same
	waiter     *waiter   // the fetch blocked on this queue, if any
}

// queued is an event in a queue. Its body is shared by every queue that got the same event and
// never changed: the hub copies what a publisher hands over once, and what a fetch returns.
type queued struct {
	id   int
	body Event
}

// waiter is one blocked fetch; done is closed when it must answer (an event arrived,
// another fetch took over the queue, or the queue went away).
type waiter struct{ done chan struct{} }

// NewHub returns an empty hub on the given virtual clock.
func NewHub(clk *clock.Clock, opts Options) *Hub {
	return &Hub{
		clock:  clk,
		gen:    clk.Unix(),
		opts:   withDefaults(opts),
		queues: map[string]*queue{},
		byUser: map[int][]*queue{}, byHolder: map[int][]*queue{},
		gcAt:   clk.Now(),
		gcWall: time.Now(),
	}
}

func withDefaults(o Options) Options {
	if o.PollTimeout <= 0 {
		o.PollTimeout = DefaultPollTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxQueuesPerUser <= 0 {
		o.MaxQueuesPerUser = DefaultMaxQueuesPerUser
	}
	if o.MaxEvents <= 0 {
		o.MaxEvents = DefaultMaxEvents
	}
	if o.MaxEventsPerUser <= 0 {
		o.MaxEventsPerUser = DefaultMaxEventsPerUser
	}
	if o.IdleWallTimeout <= 0 {
		o.IdleWallTimeout = DefaultIdleWallTimeout
	}
	return o
}

// Options returns the hub's current settings, defaults filled in.
func (h *Hub) Options() Options {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.opts
}

// Generation is the real server's server_generation: when the event system started, so
// a client can tell that the server restarted and its queues are gone.
func (h *Hub) Generation() int64 { return h.gen }

// SetPollTimeout changes the heartbeat delay of fetches that start from now on; zero or
// less restores the default.
func (h *Hub) SetPollTimeout(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.opts.PollTimeout = withDefaults(Options{PollTimeout: d}).PollTimeout
}

// SetIdleTimeout changes the idle lifetime of every queue; zero or less restores the default.
func (h *Hub) SetIdleTimeout(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.opts.IdleTimeout = withDefaults(Options{IdleTimeout: d}).IdleTimeout
	h.gcNeeded = true
}

// SetBounds changes the most events a queue holds and its idle lifetime in real time; zero or
// less restores a default.
func (h *Hub) SetBounds(maxEvents int, idleWall time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := withDefaults(Options{MaxEvents: maxEvents, IdleWallTimeout: idleWall})
	h.opts.MaxEvents, h.opts.IdleWallTimeout = d.MaxEvents, d.IdleWallTimeout
	h.gcNeeded = true
}

// BadQueue is the real server's error for a queue id that names no live queue of the user.
func BadQueue(queueID string) error {
	return apierr.New(http.StatusBadRequest, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: %s", queueID).With("queue_id", queueID)
}

// Register creates a queue and returns its id and the last event id a client starts from.
func (h *Hub) Register(spec QueueSpec) (queueID string, lastEventID int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.clock.Now()
	h.collect(now)
	holder := spec.Holder
	if holder == 0 {
		holder = spec.UserID
	}
	h.evictFor(holder)
	h.next++
	q := &queue{
		id:         fmt.Sprintf("%d-%d:%d", h.gen, h.resets, h.next),
		userID:     spec.UserID,
		holder:     holder,
		client:     spec.Client,
		clientKey:  fmt.Sprintf("%#v", spec.Client), // strings quoted, maps sorted: alike only if equal
		pruned:     -1,
		lastAccess: now,
		lastWall:   time.Now(),
	}
	if spec.EventTypes != nil {
		q.types = make(map[string]bool, len(spec.EventTypes))
		for _, t := range spec.EventTypes {
			q.types[t] = true
		}
	}
	h.queues[q.id] = q
	h.byUser[q.userID] = append(h.byUser[q.userID], q)
	h.byHolder[holder] = append(h.byHolder[holder], q)
	return q.id, -1
}

// Publish implements Publisher: ev goes, numbered with each queue's next id, to every live
// queue of the users that accepts it, and wakes their fetches.
// The hub owns ev's values from now on: a publisher must not change them afterwards.
func (h *Hub) Publish(ev Event, userIDs ...int) {
	h.PublishEach(Only(ev), userIDs...)
}

// Idle implements Idler: no queue exists, live or expired.
func (h *Hub) Idle() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.queues) == 0
}

// PublishEach implements Publisher. form runs once per user and kind of client (queues
// registered alike share its events), and each event it returns is copied once, however many
// users and queues get it.
func (h *Hub) PublishEach(form func(userID int, c Client) []Event, userIDs ...int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.collect(h.clock.Now())
	var seen map[int]bool // made for the first user with a queue: most publishes find none
	var full []*queue
	var holders []int             // of the users whose queues got events
	var copies map[uintptr]copied // by the identity of the publisher's map
	for _, uid := range userIDs {
		if len(h.byUser[uid]) == 0 || seen[uid] {
			continue
		}
		if seen == nil {
			seen = make(map[int]bool, len(userIDs))
		}
		seen[uid] = true
		if copies == nil {
			copies = map[uintptr]copied{}
		}
		var formed map[string][]Event // by client key, made for a user's second queue
		for i, q := range h.byUser[uid] {
			evs, ok := formed[q.clientKey]
			if !ok {
				for _, ev := range form(uid, q.client) {
					evs = append(evs, copyOnce(copies, ev))
				}
				if i == 0 && len(h.byUser[uid]) > 1 {
					formed = map[string][]Event{}
				}
				if formed != nil {
					formed[q.clientKey] = evs
				}
			}
			for _, ev := range evs {
				if q.accepts(ev) {
					q.push(ev)
				}
			}
			if len(q.events) > h.opts.MaxEvents {
				full = append(full, q)
			}
			if len(holders) == 0 || holders[len(holders)-1] != q.holder {
				holders = append(holders, q.holder)
			}
		}
	}
	slices.Sort(holders)
	for _, holder := range slices.Compact(holders) {
		full = append(full, h.overBudget(holder)...)
	}
	// A queue over its bound is dropped, as the real server drops a queue it cannot keep:
	// the client learns it from BAD_EVENT_QUEUE_ID and registers again.
	for _, q := range full {
		h.drop(q)
	}
}

// overBudget returns the holder's fullest queues (none over MaxEvents, which go anyway) to
// drop so that the rest hold at most MaxEventsPerUser events. The caller holds h.mu.
func (h *Hub) overBudget(holder int) []*queue {
	var kept []*queue
	pending := 0
	for _, q := range h.byHolder[holder] {
		if len(q.events) <= h.opts.MaxEvents {
			kept = append(kept, q)
			pending += len(q.events)
		}
	}
	if pending <= h.opts.MaxEventsPerUser {
		return nil
	}
	slices.SortStableFunc(kept, func(a, b *queue) int { return len(b.events) - len(a.events) })
	n := 0
	for n < len(kept) && pending > h.opts.MaxEventsPerUser {
		pending -= len(kept[n].events)
		n++
	}
	return kept[:n]
}

// copied is a publisher's event and the hub's copy of it. Holding the event keeps its address
// from being reused, within the publish, by another event that a form makes.
type copied struct{ event, copy Event }

// copyOnce is the hub's own copy of a publisher's event, made at its first sight in a publish.
func copyOnce(copies map[uintptr]copied, ev Event) Event {
	key := reflect.ValueOf(ev).Pointer()
	c, ok := copies[key]
	if !ok {
		c = copied{ev, copyMap(ev)}
		copies[key] = c
	}
	return c.copy
}

// accepts is the real server's filter of a queue's events beyond their form: the event
// types it registered for, and channel typing notifications only for clients that declared
// stream_typing_notifications.
func (q *queue) accepts(ev Event) bool {
	typ, _ := ev["type"].(string)
	if q.types != nil && !q.types[typ] {
		return false
	}
	if _, channel := ev["stream_id"]; typ == "typing" && channel {
		return q.client.Can("stream_typing_notifications")
	}
	return true
}

// push appends ev, the hub's own copy, numbered in this queue, and answers the waiting fetch.
func (q *queue) push(ev Event) {
	if mutation.On("variant-extra-event-types") && q.types == nil && ev["type"] != "heartbeat" {
		q.events = append(q.events, queued{id: q.nextID, body: Event{"type": "x_variant_notice"}})
		q.nextID++
	}
	if mutation.On("variant-extra-event-fields") {
		ev = copyMap(ev)
		ev["x_variant_note"] = "a field the document does not list"
	}
	q.events = append(q.events, queued{id: q.nextID, body: ev})
	q.nextID++
	q.release()
}

// release answers the waiting fetch, if any.
func (q *queue) release() {
	if q.waiter != nil {
		close(q.waiter.done)
		q.waiter = nil
	}
}

// contents returns copies of the queue's unacknowledged events with their ids, as a new slice
// (never nil): the client may change them, and the bodies are shared with other queues.
func (q *queue) contents() []Event {
	out := make([]Event, len(q.events))
	for i, e := range q.events {
		out[i] = copyMap(e.body)
		out[i]["id"] = e.id
	}
	return out
}

// Get is GET /events on a queue: it acknowledges (drops) the events up to lastEventID and
// returns the rest. When there are none it returns at once if dontBlock, and otherwise waits
// for an event, for ctx to end (the client went away: what the queue holds is returned), or
// for the poll timeout, which queues and returns a heartbeat event as the real server does.
func (h *Hub) Get(ctx context.Context, userID int, queueID string, lastEventID int, dontBlock bool) ([]Event, error) {
	h.mu.Lock()
	now := h.clock.Now()
	h.collect(now)
	q, err := h.access(userID, queueID)
	if err != nil {
		h.mu.Unlock()
		return nil, err
	}
	if err := q.acknowledge(lastEventID); err != nil {
		h.mu.Unlock()
		return nil, err
	}
	q.lastAccess, q.lastWall = now, time.Now()
	// A new fetch takes the queue over: an earlier one still waiting answers now.
	q.release()
	if mutation.On("variant-one-event-per-poll") && len(q.events) > 1 {
		defer h.mu.Unlock()
		return q.contents()[:1], nil
	}
	if len(q.events) > 0 || dontBlock || h.closed {
		defer h.mu.Unlock()
		return q.contents(), nil
	}
	w := &waiter{done: make(chan struct{})}
	q.waiter = w
	timeout := h.opts.PollTimeout
	h.mu.Unlock()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	heartbeat := false
	select {
	case <-w.done:
	case <-ctx.Done():
	case <-timer.C:
		heartbeat = true
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	if h.queues[q.id] != q {
		// Deleted or reset while the fetch waited: the client must register again, which an
		// empty success would hide from it.
		return nil, BadQueue(queueID)
	}
	if q.waiter == w { // still this fetch's queue: nothing else answered it
		q.waiter = nil
		if heartbeat && h.queues[q.id] == q {
			q.push(Event{"type": "heartbeat"})
		}
	}
	q.lastAccess, q.lastWall = h.clock.Now(), time.Now()
	return q.contents(), nil
}

// acknowledge drops the events up to lastEventID, with the real server's checks: the client
// may not go back behind what it already acknowledged, and may only name an event the queue
// handed out (or -1 on a queue that has acknowledged nothing yet). On error nothing changes.
func (q *queue) acknowledge(lastEventID int) error {
	if lastEventID < q.pruned {
		return apierr.BadRequest("An event newer than %d has already been pruned!", lastEventID)
	}
	newest, n := q.pruned, 0
	for n < len(q.events) && q.events[n].id <= lastEventID {
		newest = q.events[n].id
		n++
	}
	if newest != lastEventID {
		return apierr.BadRequest("Event %d was not in this queue", lastEventID)
	}
	q.pruned = newest
	q.events = slices.Delete(q.events, 0, n)
	return nil
}

// Delete is DELETE /events: the queue goes away and a fetch waiting on it answers.
func (h *Hub) Delete(userID int, queueID string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.collect(h.clock.Now())
	q, err := h.access(userID, queueID)
	if err != nil {
		return err
	}
	h.drop(q)
	return nil
}

// Reset drops every queue, as a fixture load does, and starts a new generation of queue ids;
// fetches waiting on the dropped queues answer BAD_EVENT_QUEUE_ID.
func (h *Hub) Reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, q := range h.queues {
		q.release()
	}
	h.queues, h.byUser, h.byHolder, h.next = map[string]*queue{}, map[int][]*queue{}, map[int][]*queue{}, 0
	h.resets++
	h.gcAt, h.gcNeeded = h.clock.Now(), false
}

// Close answers every waiting fetch and makes later fetches answer at once, so that a
// server shutting down does not wait for long polls. Queues and events are kept.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, q := range h.queues {
		q.release()
	}
}

// QueueInfo describes a live queue for the fake's inspector page.
type QueueInfo struct {
	ID      string
	UserID  int
	Pending int       // events not yet acknowledged
	Polled  time.Time // wall time of the last registration or fetch
	Waiting bool      // a long poll is waiting on it now
}

// Queues lists the live queues, by id.
func (h *Hub) Queues() []QueueInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.collect(h.clock.Now())
	out := make([]QueueInfo, 0, len(h.queues))
	for _, q := range h.queues {
		out = append(out, QueueInfo{ID: q.id, UserID: q.userID, Pending: len(q.events), Polled: q.lastWall, Waiting: q.waiter != nil})
	}
	slices.SortFunc(out, func(a, b QueueInfo) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Len returns the number of live queues (expired ones are collected first).
func (h *Hub) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.collect(h.clock.Now())
	return len(h.queues)
}

// access returns the user's queue of that id; another user's queue is as unknown as one
// that never existed.
func (h *Hub) access(userID int, queueID string) (*queue, error) {
	q, ok := h.queues[queueID]
	if !ok || q.userID != userID {
		return nil, BadQueue(queueID)
	}
	return q, nil
}

// drop removes a queue and answers its waiting fetch. The caller holds h.mu.
func (h *Hub) drop(q *queue) {
	q.release()
	delete(h.queues, q.id)
	unlist(h.byUser, q.userID, q)
	unlist(h.byHolder, q.holder, q)
}

// unlist removes a queue from its list in an index.
func unlist(index map[int][]*queue, key int, q *queue) {
	list := slices.DeleteFunc(index[key], func(other *queue) bool { return other == q })
	if len(list) == 0 {
		delete(index, key)
	} else {
		index[key] = list
	}
}

// collect drops the queues idle for the idle timeout or longer, as the real server's
// periodic garbage collection does; a queue with a fetch waiting on it is never idle. It
// scans only when the virtual clock or the timeout has changed since the last scan, since
// a queue's last access is never later than the clock. The caller holds h.mu.
func (h *Hub) collect(now time.Time) {
	wall := time.Now()
	if now.Equal(h.gcAt) && !h.gcNeeded && wall.Sub(h.gcWall) < time.Second {
		return
	}
	h.gcAt, h.gcWall, h.gcNeeded = now, wall, false
	for _, q := range h.queues {
		idle := now.Sub(q.lastAccess) >= h.opts.IdleTimeout || wall.Sub(q.lastWall) >= h.opts.IdleWallTimeout
		if q.waiter == nil && idle {
			h.drop(q)
		}
	}
}

// evictFor makes room for one more queue of the holder's accounts by dropping their least
// recently used queue without a waiting fetch. The caller holds h.mu.
func (h *Hub) evictFor(holder int) {
	list := h.byHolder[holder]
	if len(list) < h.opts.MaxQueuesPerUser {
		return
	}
	var oldest *queue
	for _, q := range list {
		if q.waiter == nil && (oldest == nil || q.lastAccess.Before(oldest.lastAccess)) {
			oldest = q
		}
	}
	if oldest != nil {
		h.drop(oldest)
	}
}

// copyMap copies an event so that nobody else holds a map of the hub's, nor the hub one of a
// client's: maps and lists of the generic JSON shapes are copied all the way down; other
// values are shared, which is safe because publishers hand them over for good.
func copyMap(m map[string]any) Event {
	c := make(Event, len(m)+1)
	for k, v := range m {
		c[k] = copyValue(v)
	}
	return c
}

func copyValue(v any) any {
	switch v := v.(type) {
	case Event:
		return copyMap(v)
	case map[string]any:
		return map[string]any(copyMap(v))
	case []any:
		c := make([]any, len(v))
		for i, item := range v {
			c[i] = copyValue(item)
		}
		return c
	case []map[string]any:
		c := make([]map[string]any, len(v))
		for i, item := range v {
			c[i] = copyMap(item)
		}
		return c
	default:
		return v
	}
}
