package explore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/chatconform/chatconform/harness"
)

// Reference starts a fresh reference server for one sequence, aligned with the target (its
// feature level, and its clock where the target offers the clock capability), and returns it
// connected, with a function that stops it.
type Reference func(target *harness.Target, clock *Clock) (*harness.Target, func(), error)

// Clock is the target's virtual clock as its control API reports it, when it has one.
type Clock struct {
	Now  int64  `json:"now"`
	Mode string `json:"mode"`
}

// Options are the settings of an exploration.
type Options struct {
	Seed uint64
	// Steps bounds the steps of one sequence; Budget the whole run's time, unless Sequences
	// gives how many sequences to run: the same work on any machine, however busy (tests).
	Steps     int
	Budget    time.Duration
	Sequences int
	// Tolerance is how far two times may be apart, in seconds, when the clocks are not
	// aligned through the clock capability.
	Tolerance float64
	// Shrink makes each finding's sequence minimal before it is reported.
	Shrink bool
	// MaxFindings ends the run at that many findings; 0 for no bound.
	MaxFindings int
	// Progress receives a line per sequence; nil for none.
	Progress io.Writer
}

// Finding is one difference, with the minimal sequence that shows it.
type Finding struct {
	ID           string     `json:"id"`
	Requirements []string   `json:"requirements"`
	Difference   Difference `json:"difference"`
	Seed         uint64     `json:"seed"`
	// Steps is the sequence that shows it (minimal when shrunk); the difference is in the
	// answers to its last step or the reads and events after it.
	Steps []Step `json:"steps"`
	// Requests are the target's own request of every step, as sent (the curl script's).
	Requests []Exchange `json:"target_requests,omitempty"`
	// Exchanges are both sides' requests of the last step and what came back.
	Target    []Exchange `json:"target_exchanges,omitempty"`
	Reference []Exchange `json:"reference_exchanges,omitempty"`
}

// Result is what an exploration found.
type Result struct {
	Seed      uint64 `json:"seed"`
	Sequences int    `json:"sequences"`
	Steps     int    `json:"steps"`
	// Succeeded are the steps that succeeded on the reference: the others were refused,
	// mostly on purpose (a faulty step).
	Succeeded int       `json:"succeeded_steps"`
	Findings  []Finding `json:"findings"`
	// Gaps are fields the reference sent that the field table lacks: the table must grow.
	Gaps []string `json:"gaps,omitempty"`
	// Checked are the requirements whose fields the run's sequences compared (a finding's
	// too), sorted: what the run could have told, as Findings are what it did.
	Checked []string `json:"checked,omitempty"`
	// Masked are the fields ("reply path") the table lets pass (free, or compared by type or
	// text only) whose values differed between the sides.
	Masked  []string `json:"masked,omitempty"`
	Seconds float64  `json:"seconds"`
}

// Explorer runs sequences against a connected target and fresh references.
type Explorer struct {
	Target    *harness.Target
	Reference Reference
	Table     *Table
	Options   Options
}

// Run explores until the budget is spent: sequences from seeds drawn from Options.Seed, each
// until its first difference or its step bound; each difference found is shrunk and
// reported once per field.
func (e *Explorer) Run(ctx context.Context) (Result, error) {
	start := time.Now()
	res := Result{Seed: e.Options.Seed}
	deadline := start.Add(e.Options.Budget)
	more := func(seq uint64) bool { return time.Now().Before(deadline) }
	if n := uint64(e.Options.Sequences); n > 0 {
		deadline = start.Add(100 * 365 * 24 * time.Hour) // counted, not timed
		more = func(seq uint64) bool { return seq < n }
	}
	found := map[string]bool{}
	seen := newTally()
	for seq := uint64(0); more(seq); seq++ {
		seed := e.Options.Seed + seq
		out, err := e.sequence(ctx, seed, nil, deadline, seq == 0)
		if ctx.Err() != nil {
			break // interrupted: report what was found so far
		}
		if err != nil {
			return res, err
		}
		res.Sequences++
		res.Steps += len(out.steps)
		res.Succeeded += out.succeeded
		seen.add(out.tally)
		if e.Options.Progress != nil {
			fmt.Fprintf(e.Options.Progress, "explore: sequence %d (seed %d): %d steps, %s\n", res.Sequences, seed, len(out.steps), out.describe())
		}
		if out.diff == nil || found[out.diff.key()] {
			continue
		}
		found[out.diff.key()] = true
		f := out.finding(seed)
		if e.Options.Shrink {
			f = e.shrink(ctx, f)
		}
		f.ID = fmt.Sprintf("X%02d", len(res.Findings)+1)
		res.Findings = append(res.Findings, f)
		if len(res.Findings) == e.Options.MaxFindings {
			break
		}
	}
	seen.into(&res)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// Replay runs a recorded sequence once: a result of one sequence, with the difference it shows
// as its one finding, if any.
func (e *Explorer) Replay(ctx context.Context, s Script) (Result, error) {
	start := time.Now()
	out, err := e.sequence(ctx, s.Seed, s.Steps, time.Time{}, false)
	if err != nil {
		return Result{}, err
	}
	res := Result{Seed: s.Seed, Sequences: 1, Steps: len(out.steps)}
	out.into(&res)
	if out.diff != nil {
		f := out.finding(s.Seed)
		f.ID = "X01"
		res.Findings = []Finding{f}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// sortedKeys are a set's members in order.
func sortedKeys(set map[string]bool) []string {
	var keys []string
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// outcome is one sequence's run.
type outcome struct {
	steps []Step
	// succeeded counts the steps that succeeded on the reference.
	succeeded int
	diff      *Difference
	tally
	// last are both sides' exchanges of the last step.
	last [2][]Exchange
	// requests are the target's request of every step.
	requests []Exchange
}

// tally is what comparisons saw besides a difference: fields the reference sent that the
// table lacks (gaps: the table is incomplete), the requirements of the determined fields
// compared (checked, which the reports pass when none of their fields differed), and the
// fields the table lets pass whose values differed (masked, which tell a survivor of the
// mutants' explore column from one never read back).
type tally struct{ gaps, checked, masked map[string]bool }

func newTally() tally {
	return tally{gaps: map[string]bool{}, checked: map[string]bool{}, masked: map[string]bool{}}
}

// add takes in another sequence's tally.
func (t tally) add(o tally) {
	maps.Copy(t.gaps, o.gaps)
	maps.Copy(t.checked, o.checked)
	maps.Copy(t.masked, o.masked)
}

// into writes the tally into a result, each set in order.
func (t tally) into(res *Result) {
	res.Gaps, res.Checked, res.Masked = sortedKeys(t.gaps), sortedKeys(t.checked), sortedKeys(t.masked)
}

// finding makes the outcome's difference a finding.
func (o outcome) finding(seed uint64) Finding {
	return Finding{Seed: seed, Difference: *o.diff, Requirements: o.diff.Requirements, Steps: o.steps,
		Requests: o.requests, Target: o.last[0], Reference: o.last[1]}
}

func (o outcome) describe() string {
	if o.diff == nil {
		return "no difference"
	}
	return fmt.Sprintf("difference in %s %s (%s)", o.diff.Reply, o.diff.Path, strings.Join(o.diff.Requirements, ", "))
}

// sequence runs one sequence: the steps given, or, when none are, steps drawn from seed
// until the step bound or the deadline. It stops at the first difference. first says the
// target is as fresh as the reference: the run's first sequence.
func (e *Explorer) sequence(ctx context.Context, seed uint64, given []Step, deadline time.Time, first bool) (outcome, error) {
	out := outcome{tally: newTally()}
	clock, err := targetClock(e.Target)
	if err != nil {
		return out, err
	}
	ref, stop, err := e.Reference(e.Target, clock)
	if err != nil {
		return out, fmt.Errorf("starting the reference: %w", err)
	}
	defer stop()
	prefix := newPrefix()
	a, b := newSide("target", e.Target, prefix), newSide("reference", ref, prefix)
	if clock != nil {
		// Both clocks read the same: times compare exactly, and "now" is the target's.
		off := float64(clock.Now) - float64(time.Now().Unix())
		a.clockOffset, b.clockOffset = off, off
	}
	tolerance := e.Options.Tolerance
	if clock != nil {
		tolerance = 1 // both clocks read the same; a running one may tick between the sides
	}
	c := &comparer{table: e.Table, tolerance: tolerance, a: a, b: b, tally: out.tally}
	if clock == nil {
		// A real server delivers events through another process, a moment after the reply:
		// give it that moment before each drain, so an event never lands in the next step's.
		c.settle = 200 * time.Millisecond
	}
	defer a.cleanup(ctx)
	defer b.cleanup(ctx)
	// Presence cannot be reset: a target the run has touched before (or a real server, whose
	// cast reported presence long ago) holds presence the fresh reference lacks. Presence data
	// and presence events are explored only on a fresh fake: the first sequence, or a replay
	// of steps that ask for them.
	presence := clock != nil && (given == nil && first || slices.ContainsFunc(given, askPresence))
	control := clock != nil && !slices.ContainsFunc(controlCapabilities, func(c string) bool { return !e.Target.Capabilities[c] })
	types := slices.Clone(eventTypes)
	if presence {
		types = append(types, "presence")
	}
	if control {
		// A shared server's realm events may come from anyone: a fake's are the run's own.
		types = append(types, "realm")
	}
	for _, s := range []*Side{a, b} {
		if err := s.register(ctx, types); err != nil {
			return out, err
		}
	}
	gen := newGenerator(seed, ref.Realm.MaxTopicLength, ref.Realm.MaxMessageLength, ref.Realm.EmptyTopicDisplayName)
	gen.presence = presence
	gen.jwt = a.jwtKey != "" && b.jwtKey != ""
	gen.control = control
	for i := 0; ; i++ {
		var st Step
		switch {
		case given != nil && i >= len(given):
			return out, nil
		case given != nil:
			st = given[i]
		case i >= e.Options.Steps || time.Now().After(deadline):
			return out, nil
		default:
			st = gen.next()
		}
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		out.steps = append(out.steps, st)
		na, nb := len(a.log), len(b.log)
		ok, err := e.step(ctx, c, st)
		if err != nil {
			return out, err
		}
		if len(a.log) > na {
			out.requests = append(out.requests, a.log[na])
		}
		gen.observe(ok)
		if ok {
			out.succeeded++
		}
		if len(c.diffs) > 0 {
			d := c.diffs[0]
			out.diff = &d
			out.last = [2][]Exchange{a.log[na:], b.log[nb:]}
			return out, nil
		}
	}
}

// step sends one step to both sides, compares the answers, then reads back what it could
// have changed as every actor and drains every event queue. It returns whether the step
// succeeded on the reference.
func (e *Explorer) step(ctx context.Context, c *comparer, st Step) (bool, error) {
	for _, s := range []*Side{c.a, c.b} {
		remember := map[string]func(context.Context) error{"set_email_visibility": s.rememberVisibility, "set_edit_limit": s.rememberLimits,
			"set_group_setting": s.rememberLimits, "own_email_visibility": func(ctx context.Context) error { return s.rememberOwnVisibility(ctx, st.Actor) }}[st.Op]
		if remember == nil {
			continue
		}
		if err := remember(ctx); err != nil {
			return false, err
		}
	}
	send := (*Side).sendAll
	if st.Control {
		send = (*Side).sendControl
	}
	ra, err := send(c.a, ctx, st)
	if err != nil {
		return false, err
	}
	rb, err := send(c.b, ctx, st)
	if err != nil {
		return false, err
	}
	if st.Control && ra.success() != rb.success() {
		// Not a difference of the document's: the two fakes' control APIs disagree.
		return false, fmt.Errorf("control step %s %s: target %s, reference %s", st.Method, st.Path, outcomeText(ra), outcomeText(rb))
	}
	if name, ok := strings.CutPrefix(st.Learn, "upload:"); ok {
		// Before the comparison: the reply holds the file's path, each side's own.
		if err := c.a.learnUpload(ctx, st.Actor, name, ra); err != nil {
			return false, err
		}
		if err := c.b.learnUpload(ctx, st.Actor, name, rb); err != nil {
			return false, err
		}
	}
	if name, ok := strings.CutPrefix(st.Learn, "user:"); ok {
		c.a.learnUser(name, ra)
		c.b.learnUser(name, rb)
	}
	if name, ok := strings.CutPrefix(st.Learn, "device:"); ok {
		c.a.learnID("device", name, "device_id", ra)
		c.b.learnID("device", name, "device_id", rb)
	}
	if name, ok := strings.CutPrefix(st.Learn, "message:"); ok {
		c.a.learnID("message", name, "id", ra)
		c.b.learnID("message", name, "id", rb)
	}
	for _, r := range []struct {
		s     *Side
		reply Reply
	}{{c.a, ra}, {c.b, rb}} {
		if id := rawText(r.reply.field("reminder_id")); st.Op == "create_reminder" && r.reply.success() && id != "" {
			r.s.reminders = append(r.s.reminders, [2]string{st.Actor, id})
		}
		// A ping's answer only echoes what was passed, and may leave it out (the real server).
		if id := rawText(r.reply.field("presence_last_update_id")); r.reply.success() && id != "" && st.Params["ping_only"] != "true" {
			r.s.updateIDs[st.Actor] = id
		}
	}
	if st.Op == "legacy_push" && st.Method == http.MethodPost {
		c.a.legacyPush = append(c.a.legacyPush, [2]string{st.Actor, st.Params["token"]})
		c.b.legacyPush = append(c.b.legacyPush, [2]string{st.Actor, st.Params["token"]})
	}
	if !st.Control {
		c.compareReplies(st.Op, st.Actor, st.Params, ra, rb)
	}
	if st.Learn != "" && st.Learn != "playgrounds" && !strings.Contains(st.Learn, ":") {
		for _, s := range []*Side{c.a, c.b} {
			if err := s.learnChannel(ctx, st.Learn); err != nil {
				return false, err
			}
		}
	}
	for _, read := range reads(st) {
		actors := readers
		if read.Actor != "" {
			actors = []string{read.Actor}
		}
		for _, actor := range actors {
			ra, err := c.a.send(ctx, actor, read.Method, read.Path, read.Params)
			if err != nil {
				return false, err
			}
			rb, err := c.b.send(ctx, actor, read.Method, read.Path, read.Params)
			if err != nil {
				return false, err
			}
			c.compareReplies(read.Op, actor, read.Params, ra, rb)
			for _, r := range []struct {
				s     *Side
				reply Reply
			}{{c.a, ra}, {c.b, rb}} {
				r.s.closeQueue(ctx, actor, r.reply)
			}
		}
	}
	if st.Control && st.Path == "/_fake/clock" {
		for _, s := range []*Side{c.a, c.b} {
			if err := s.openQueues(ctx); err != nil {
				return false, err
			}
		}
	}
	if err := c.compareEvents(ctx); err != nil {
		return false, err
	}
	return rb.success(), nil
}

// maxRepeats bounds the repeats of a batch operation that answers complete=false: a
// mark-all-as-read in batches of one message, on a target whose earlier sequences left
// hundreds of messages unread, takes as many requests.
const maxRepeats = 5000

// sendAll sends a step; a batch operation that answers complete=false is repeated until it
// completes, as the document tells clients to: the batch size is each server's own. Below the
// level of complete, the real server answered result partially_completed instead.
func (s *Side) sendAll(ctx context.Context, st Step) (Reply, error) {
	r, err := s.send(ctx, st.Actor, st.Method, st.Path, st.Params)
	stopped := func() bool {
		return r.success() && r.field("complete") == false || r.field("result") == "partially_completed"
	}
	for i := 0; err == nil && i < maxRepeats && stopped(); i++ {
		r, err = s.send(ctx, st.Actor, st.Method, st.Path, st.Params)
	}
	return r, err
}

// compareReplies compares two answers: success against error is a difference of result;
// two errors compare by code and the documented extra fields, never by msg.
func (c *comparer) compareReplies(op, actor string, params map[string]string, ra, rb Reply) {
	c.params = params
	defer func() { c.params = nil }()
	if ra.success() != rb.success() {
		// Attributed to the operation's rules, and to the Errors table's row of the code the
		// refusing side answered.
		row, _ := c.rowOf(op, "result")
		codeA, _ := ra.field("code").(string)
		codeB, _ := rb.field("code").(string)
		reqs := merge(codeRequirements[codeA], codeRequirements[codeB], row.Requirements)
		c.diffs = append(c.diffs, Difference{Reply: op, Path: "result", Actor: actor, Requirements: reqs,
			Target: outcomeText(ra), Reference: outcomeText(rb)})
		return
	}
	if rb.success() {
		c.compare(op, actor, ra.Body, rb.Body)
		return
	}
	reply := "error " + op
	if _, ok := c.table.rows[key(reply, "code")]; !ok {
		reply = "error"
	}
	before := len(c.diffs)
	c.compare(reply, actor, ra.Body, rb.Body)
	// A code that differs breaks the rule of the operation's refusal too, and the Errors
	// table's row of the code the reference answered.
	opRow, _ := c.rowOf(op, "result")
	code, _ := rb.field("code").(string)
	for i := before; i < len(c.diffs); i++ {
		if c.diffs[i].Path == "code" {
			c.diffs[i].Requirements = merge(c.diffs[i].Requirements, opRow.Requirements, codeRequirements[code])
		}
	}
}

// codeRequirements are the Errors table's rows of the documented codes.
var codeRequirements = map[string][]string{
	"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED":   {"ERR-05"},
	"STREAM_WILDCARD_MENTION_NOT_ALLOWED": {"ERR-08"},
	"TOPIC_WILDCARD_MENTION_NOT_ALLOWED":  {"ERR-09"},
	"PUSH_SERVICE_NOT_CONFIGURED":         {"ERR-10"},
	"UNAUTHORIZED_PRINCIPAL":              {"ERR-11"},
	"UNAUTHORIZED":                        {"ERR-12", "AUTH-05", "AUTH-06", "AUTH-07"},
	"PERMISSION_DENIED":                   {"ERR-13"},
}

// merge joins requirement lists, each ID once, in order.
func merge(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, id := range l {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// outcomeText is how a finding shows an answer's result: success, or the error's code.
func outcomeText(r Reply) string {
	if r.success() {
		return "success"
	}
	if code, ok := r.field("code").(string); ok {
		return fmt.Sprintf("error %s (HTTP %d)", code, r.Status)
	}
	return fmt.Sprintf("HTTP %d %s", r.Status, clip(fmt.Sprint(r.Body), 200))
}

// reads are the requests that read back what a step could have changed.
func reads(st Step) []Step {
	var out []Step
	if st.Message != "" {
		out = append(out, Step{Op: "fetch_message", Method: "GET", Path: "/messages/{message" + st.Message + "}",
			Params: map[string]string{"apply_markdown": "false"}})
	}
	if strings.HasPrefix(st.Op, "bot_storage") {
		out = append(out, Step{Op: "get_bot_storage", Actor: "bot", Method: "GET", Path: "/bot_storage"})
	}
	if st.Op == "add_playground" {
		out = append(out, Step{Op: "get_playgrounds", Actor: "owner", Method: "POST", Path: "/register", Params: map[string]string{
			"event_types": `["realm_playgrounds"]`, "fetch_event_types": `["realm_playgrounds"]`}})
	}
	if st.Upload != "" {
		out = append(out,
			Step{Op: "get_attachments", Method: "GET", Path: "/attachments"},
			Step{Op: "get_upload", Method: "GET", Path: "/user_uploads/{upload:" + st.Upload + "}"})
	}
	if st.User != "" {
		out = append(out, Step{Op: "get_users", Method: "POST", Path: "/register", Params: map[string]string{
			"event_types": `["realm_user"]`, "fetch_event_types": `["realm_user"]`, "client_gravatar": "false"}})
		if st.User != "owner" {
			out = append(out, Step{Op: "get_user", Method: "GET", Path: "/users/{user:" + st.User + "}",
				Params: map[string]string{"include_custom_profile_fields": "true"}})
		}
	}
	if st.Op == "create_reminder" {
		out = append(out, Step{Op: "get_reminders", Actor: st.Actor, Method: "GET", Path: "/reminders"})
	}
	if st.Op == "set_vcall_token" {
		out = append(out, Step{Op: "get_vcall_token", Actor: st.Actor, Method: "POST", Path: "/register", Params: map[string]string{
			"event_types": `["has_vcall_token"]`, "fetch_event_types": `["has_vcall_token"]`}})
	}
	if st.Op == "register_push" {
		out = append(out, Step{Op: "get_devices", Actor: st.Actor, Method: "POST", Path: "/register", Params: map[string]string{
			"event_types": `["device"]`, "fetch_event_types": `["device"]`}})
	}
	if st.Op == "add_linkifier" {
		out = append(out, Step{Op: "get_linkifiers", Actor: "member", Method: "GET", Path: "/realm/linkifiers"})
	}
	if st.Op == "topic_muting" {
		out = append(out, Step{Op: "get_user_topics", Actor: st.Actor, Method: "POST", Path: "/register", Params: map[string]string{
			"event_types": `["user_topic"]`, "fetch_event_types": `["user_topic","muted_topics"]`}})
	}
	if st.Channel != "" && st.Channel != "nowhere" {
		narrow := jsonText([]map[string]string{{"operator": "stream", "operand": "{name:" + st.Channel + "}"}})
		out = append(out,
			Step{Op: "get_messages", Method: "GET", Path: "/messages", Params: map[string]string{
				"anchor": "newest", "num_before": "40", "num_after": "0", "narrow": narrow, "apply_markdown": "false"}},
			Step{Op: "get_topics", Method: "GET", Path: "/users/me/{channel:" + st.Channel + "}/topics"},
			Step{Op: "get_subscriptions", Method: "GET", Path: "/users/me/subscriptions"},
		)
	}
	return out
}

// eventTypes are the events each actor's queue asks for: whether each reaches only the users
// it concerns (EVENT-07) and says what changed. A sequence that explores presence asks for
// presence events too, and one against a fake for realm events.
var eventTypes = []string{"message", "update_message", "delete_message", "reaction", "subscription", "stream", "realm_user", "has_vcall_token",
	"user_topic", "update_message_flags", "reminders", "typing_edit_message", "typing"}

// askPresence says whether a step asks for presence data.
func askPresence(st Step) bool {
	return st.Op == "update_presence_modern" || st.Op == "update_presence_legacy"
}

// register opens an event queue of the types for every actor.
func (s *Side) register(ctx context.Context, types []string) error {
	s.eventTypes = types
	if err := s.learnFields(ctx); err != nil {
		return err
	}
	// Nothing unread, on either side: a target's earlier sequences leave messages unread
	// that a fresh reference lacks, which would make a mark-all-as-read in bounded batches
	// take more requests, or time out, on the target alone.
	for _, actor := range readers {
		r, err := s.sendAll(ctx, Step{Actor: actor, Method: http.MethodPost, Path: "/mark_all_as_read"})
		if err != nil {
			return err
		}
		if !r.success() {
			return s.fail("marking everything read as the %s: %s", actor, outcomeText(r))
		}
	}
	if err := s.openQueues(ctx); err != nil {
		return err
	}
	s.log = nil
	return nil
}

// openQueues opens every actor's event queue, afresh after the clock moved past the queues'
// idle timeout (what fell due on the way is not compared).
func (s *Side) openQueues(ctx context.Context) error {
	for _, actor := range readers {
		r, err := s.send(ctx, actor, http.MethodPost, "/register", map[string]string{
			"event_types": jsonText(s.eventTypes), "apply_markdown": "false", "client_gravatar": "false",
			// Typing in channels reaches only the clients that say they handle it.
			"client_capabilities": `{"stream_typing_notifications":true}`})
		if err != nil {
			return err
		}
		id, _ := r.field("queue_id").(string)
		if !r.success() || id == "" {
			return s.fail("registering an event queue as the %s: %s", actor, outcomeText(r))
		}
		if old := s.queues[actor]; old != nil {
			_, _ = s.send(ctx, actor, http.MethodDelete, "/events", map[string]string{"queue_id": old.id})
		}
		s.queues[actor] = &queue{id: id, last: rawText(r.field("last_event_id"))}
	}
	return nil
}

// closeQueue deletes the event queue a read's registration opened, if it did.
func (s *Side) closeQueue(ctx context.Context, actor string, r Reply) {
	if id, ok := r.field("queue_id").(string); ok && id != "" {
		_, _ = s.send(ctx, actor, http.MethodDelete, "/events", map[string]string{"queue_id": id})
	}
}

// drain reads an actor's pending events without waiting, the run's own only.
func (s *Side) drain(ctx context.Context, actor string) ([]any, error) {
	q := s.queues[actor]
	r, err := s.send(ctx, actor, http.MethodGet, "/events", map[string]string{"queue_id": q.id, "last_event_id": q.last, "dont_block": "true"})
	if err != nil {
		return nil, err
	}
	if !r.success() {
		return nil, s.fail("reading the events of the %s: %s", actor, outcomeText(r))
	}
	list, _ := r.field("events").([]any)
	var out []any
	for _, ev := range list {
		obj, _ := ev.(map[string]any)
		q.last = rawText(obj["id"])
		// A type the queue did not ask for is not compared: "Event queue operations
		// (registering a queue, fetching events): not shown." (the real server's double
		// ends every batch with one).
		if t, _ := obj["type"].(string); !slices.Contains(s.eventTypes, t) || !s.inScope(obj) {
			continue
		}
		out = append(out, ev)
	}
	return out, nil
}

// inScope says whether an event is about the run's own channels: every stream_id it carries
// is one the run knows (a shared server's other traffic is not compared).
func (s *Side) inScope(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if k == "stream_id" {
				if _, known := s.syms.lookup("channel", rawText(child)); !known && child != nil {
					return false
				}
			}
			if !s.inScope(child) {
				return false
			}
		}
	case []any:
		for _, child := range x {
			if !s.inScope(child) {
				return false
			}
		}
	}
	return true
}

// compareEvents drains every actor's queue on both sides and compares the events in order.
func (c *comparer) compareEvents(ctx context.Context) error {
	time.Sleep(c.settle)
	for _, actor := range readers {
		eb, err := c.b.drain(ctx, actor)
		if err != nil {
			return err
		}
		ea, err := c.a.drain(ctx, actor)
		if err != nil {
			return err
		}
		// A real server delivers events a moment later: wait a little for the rest.
		for wait := 0; len(ea) < len(eb) && wait < 5; wait++ {
			time.Sleep(100 * time.Millisecond)
			more, err := c.a.drain(ctx, actor)
			if err != nil {
				return err
			}
			ea = append(ea, more...)
		}
		ea, eb = coalesce(ea), coalesce(eb)
		if len(ea) != len(eb) {
			row, _ := c.rowOf("events", "events")
			c.diffs = append(c.diffs, Difference{Reply: "events", Path: "events", Actor: actor, Requirements: row.Requirements,
				Target: eventTypesOf(ea), Reference: eventTypesOf(eb)})
			continue
		}
		for i := range ea {
			ta, tb := eventType(ea[i]), eventType(eb[i])
			if ta != tb {
				row, _ := c.rowOf("events", "events[].type")
				c.diffs = append(c.diffs, Difference{Reply: "events", Path: "events[].type", Actor: actor, Requirements: row.Requirements,
					Target: eventTypesOf(ea), Reference: eventTypesOf(eb)})
				break
			}
			c.compare("event "+tb, actor, ea[i], eb[i])
		}
	}
	return nil
}

// coalesce merges each run of update_message_flags events of one op and flag into one, their
// messages together: a batch operation (mark all as read) announces each batch, and the batch
// size is each server's own.
func coalesce(list []any) []any {
	var out []any
	for _, ev := range list {
		obj, _ := ev.(map[string]any)
		if n := len(out); n > 0 && obj["type"] == "update_message_flags" {
			prev, _ := out[n-1].(map[string]any)
			if prev["type"] == obj["type"] && prev["op"] == obj["op"] && prev["flag"] == obj["flag"] {
				merged := maps.Clone(prev)
				before, _ := prev["messages"].([]any)
				batch, _ := obj["messages"].([]any)
				merged["messages"] = append(slices.Clone(before), batch...)
				out[n-1] = merged
				continue
			}
		}
		out = append(out, ev)
	}
	return out
}

// eventType is an event's type, with its op or property where it has one: a subscription
// update of is_muted is "subscription update".
func eventType(v any) string {
	obj, _ := v.(map[string]any)
	t, _ := obj["type"].(string)
	if op, ok := obj["op"].(string); ok {
		t += " " + op
	}
	return t
}

func eventTypesOf(list []any) string {
	types := make([]string, len(list))
	for i, ev := range list {
		types[i] = eventType(ev)
	}
	return "[" + strings.Join(types, ", ") + "]"
}

// learnChannel looks up the ID of a channel the step created, as the owner, and names it.
func (s *Side) learnChannel(ctx context.Context, name string) error {
	r, err := s.send(ctx, "owner", http.MethodGet, "/get_stream_id", map[string]string{"stream": "{name:" + name + "}"})
	if err != nil {
		return err
	}
	if r.success() {
		s.syms.bind("channel", name, rawText(r.field("stream_id")))
	}
	return nil
}

// cleanup archives the channels the sequence created and closes its event queues; what
// fails is left, as the suite's own cleanup does, for the next run not to depend on it.
func (s *Side) cleanup(ctx context.Context) {
	for actor, q := range s.queues {
		_, _ = s.send(ctx, actor, http.MethodDelete, "/events", map[string]string{"queue_id": q.id})
	}
	var channels []string
	for sym, raw := range s.syms.bySym["channel"] {
		if strings.HasPrefix(sym, ":") {
			channels = append(channels, raw)
		}
	}
	sort.Strings(channels)
	for _, id := range channels {
		_, _ = s.send(ctx, "owner", http.MethodDelete, "/streams/"+id, nil)
	}
	for _, id := range s.syms.bySym["playground"] {
		_, _ = s.send(ctx, "owner", http.MethodDelete, "/realm/playgrounds/"+id, nil)
	}
	if s.visibility != "" {
		_, _ = s.send(ctx, "owner", http.MethodPatch, "/realm/user_settings_defaults", map[string]string{"email_address_visibility": s.visibility})
	}
	for actor, v := range s.ownVisibility {
		_, _ = s.send(ctx, actor, http.MethodPatch, "/settings", map[string]string{"email_address_visibility": v})
	}
	for id, actor := range s.uploaders {
		_, _ = s.send(ctx, actor, http.MethodDelete, "/attachments/"+id, nil)
	}
	s.restoreControl(ctx)
	for _, id := range s.syms.bySym["linkifier"] {
		_, _ = s.send(ctx, "owner", http.MethodDelete, "/realm/filters/"+id, nil)
	}
	s.demoteAccounts(ctx)
	for _, r := range s.reminders { // one already delivered is gone: refused, harmlessly
		_, _ = s.send(ctx, r[0], http.MethodDelete, "/reminders/"+r[1], nil)
	}
	for _, reg := range s.legacyPush {
		_, _ = s.send(ctx, reg[0], http.MethodDelete, "/users/me/android_gcm_reg_id", map[string]string{"token": reg[1]})
	}
}

// demoteAccounts makes the accounts the run created members again: an owner among them
// would let a later sequence change the only owner's role, which the reference, with one
// owner, refuses, and which would change the cast.
func (s *Side) demoteAccounts(ctx context.Context) {
	var ids []string
	for sym, raw := range s.syms.bySym["user"] {
		if _, cast := s.actors[strings.TrimPrefix(sym, ":")]; strings.HasPrefix(sym, ":") && !cast {
			ids = append(ids, raw)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		_, _ = s.send(ctx, "owner", http.MethodPatch, "/users/"+id, map[string]string{"role": "400"})
	}
}

// targetClock reads the target's virtual clock when it offers the clock capability.
func targetClock(t *harness.Target) (*Clock, error) {
	if !t.Capabilities["clock"] {
		return nil, nil
	}
	req, err := http.NewRequest(http.MethodGet, t.URL+"/_fake/clock", nil)
	if err != nil {
		return nil, err
	}
	resp, err := t.HTTPClient().Do(req)
	if err != nil {
		return nil, fmt.Errorf("reading the target's clock: %w", err)
	}
	defer resp.Body.Close()
	var c Clock
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || c.Now == 0 {
		return nil, errors.New("reading the target's clock: GET /_fake/clock gave no time")
	}
	return &c, nil
}

// newPrefix is a run's unique name prefix, the same length every time so that the bounds on
// names behave alike on both sides.
func newPrefix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return "x" + hex.EncodeToString(b) + "-"
}

// requirementsOf gathers the findings' requirement IDs.
func requirementsOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		for _, id := range f.Requirements {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	sort.Strings(out)
	return out
}
