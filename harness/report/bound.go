package report

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/harness"
)

// Limits bound the large parts of a report: the captured output and the exchanges of each
// failure, and the failure messages a systemic bug repeats in hundreds of specs. Every failure
// stays, named, with its spec, state, location, finding and the start of its message.
type Limits struct {
	// FullPerFinding is how many failed specs of one finding keep their output and exchanges;
	// the others fail the same way, and the finding's first ones show how.
	FullPerFinding int `json:"full_per_finding"`
	// MaxOutput bounds the output a failure keeps: its end, up to the failing request's end.
	MaxOutput int `json:"max_output_bytes"`
	// MaxBody bounds each body of a kept failure's exchanges, the failing exchange's but
	// included, when together they exceed MaxOutput.
	MaxBody int `json:"max_body_bytes"`
	// MaxDetail bounds the output and exchanges kept over the whole report; once it is spent,
	// every further failure is cut as a repeated one.
	MaxDetail int `json:"max_detail_bytes"`
	// MaxMessage and MaxRequest bound the message and the failing request of a cut failure.
	MaxMessage int `json:"max_message_bytes"`
	MaxRequest int `json:"max_request_bytes"`
	// MaxNotes bounds the notes of a cut failure.
	MaxNotes int `json:"max_notes"`
}

// DefaultLimits keep the report of a server failing every spec the same way near 2 MB
// (conformance.json; the page about the same), where it would otherwise be some tens.
var DefaultLimits = Limits{
	FullPerFinding: 3, MaxOutput: 32 << 10, MaxBody: 1 << 10, MaxDetail: 1 << 20,
	MaxMessage: 512, MaxRequest: 512, MaxNotes: 5,
}

// Bounded says what a bounded report left out and how to get it all.
type Bounded struct {
	Limits Limits `json:"limits"`
	// Failures counts the failures that lost something; Bytes is how much they lost in all
	// (text, and the structured exchanges as their JSON).
	Failures int `json:"failures"`
	Bytes    int `json:"bytes"`
	// Full says how to have every byte.
	Full string `json:"full"`
}

// Omitted says what one failure of a bounded report lost, and why.
type Omitted struct {
	Why            string `json:"why"`
	Output         int    `json:"output_bytes,omitempty"`
	Exchanges      int    `json:"exchanges,omitempty"`
	ExchangeBytes  int    `json:"exchange_bytes,omitempty"`
	Message        int    `json:"message_bytes,omitempty"`
	FailingRequest int    `json:"failing_request_bytes,omitempty"`
	Notes          int    `json:"notes,omitempty"`
}

// FullReport says how to have an unbounded report.
var FullReport = "set `--record-exchanges` (`-" + harness.FlagPrefix + "record-exchanges`): the reports then keep every failure in full, and exchanges.jsonl every spec's exchanges"

// Bound cuts the report's failures to l, in the order the reports list them (other failures,
// then by requirement): per finding, its first FullPerFinding specs keep their output (its end)
// and exchanges (bodies cut when large) while the report's MaxDetail lasts; a further spec of a
// finding and every failure after the budget keep their message and failing request cut, and
// no output or exchanges. A spec listed under several requirements is cut alike under each. Each finding's
// example is its first failure as kept. A report with nothing to cut is left as it is.
func (c *Conformance) Bound(l Limits) {
	b := &bounder{l: l, perFinding: map[string]int{}, decided: map[string]string{}, first: map[string]*Failure{}}
	for i := range c.OtherFailures {
		b.failure(&c.OtherFailures[i])
	}
	for ri := range c.Requirements {
		for fi := range c.Requirements[ri].Failures {
			b.failure(&c.Requirements[ri].Failures[fi])
		}
	}
	for i := range c.Findings {
		if f, ok := b.first[c.Findings[i].ID]; ok {
			c.Findings[i].Example = *f
		}
	}
	if b.out.Failures > 0 {
		b.out.Limits, b.out.Full = l, FullReport
		c.Bounded = &b.out
	}
}

type bounder struct {
	l          Limits
	detail     int
	perFinding map[string]int    // finding -> its failures kept in full
	decided    map[string]string // spec -> why it is cut, "" when kept in full
	first      map[string]*Failure
	out        Bounded
}

func (b *bounder) failure(f *Failure) {
	defer func() {
		if _, ok := b.first[f.Finding]; !ok && f.Finding != "" {
			b.first[f.Finding] = f
		}
	}()
	// A spec naming several requirements is listed under each, cut the same way each time.
	if why, seen := b.decided[f.Spec]; seen {
		if why == "" {
			b.keep(f)
		} else {
			b.repeat(f, why)
		}
		return
	}
	key := f.Finding
	if key == "" {
		key = "spec " + f.Spec
	}
	why := ""
	switch {
	case b.perFinding[key] >= b.l.FullPerFinding:
		why = fmt.Sprintf("finding %s fails the same way in %d specs shown in full", f.Finding, b.l.FullPerFinding)
	case b.detail >= b.l.MaxDetail:
		why = fmt.Sprintf("the report's %d bytes for outputs and exchanges are spent", b.l.MaxDetail)
	}
	b.decided[f.Spec] = why
	if why != "" {
		b.repeat(f, why)
		return
	}
	b.perFinding[key]++
	b.keep(f)
}

// keep bounds a failure shown in full: the end of its output and its exchanges' bodies.
func (b *bounder) keep(f *Failure) {
	var om Omitted
	if n := len(f.Output); n > b.l.MaxOutput {
		// The end kept is the failing request's end when known: the cleanup after it matters least.
		end := n
		if f.failingAt != nil {
			end = min(n, *f.failingAt+len(f.FailingRequest))
		}
		start := max(0, end-b.l.MaxOutput)
		for start < end && !utf8.RuneStart(f.Output[start]) {
			start++
		}
		om.Output = n - (end - start)
		head := fmt.Sprintf("… (%d bytes of the output left out before)\n", start)
		tail := ""
		if end < n {
			tail = fmt.Sprintf("\n… (%d bytes of the output left out after)", n-end)
		}
		switch {
		case f.failingAt != nil && *f.failingAt >= start:
			at := *f.failingAt - start + len(head)
			f.failingAt = &at
		default:
			// A failing request longer than the window is not in it: nothing to mark.
			f.failingAt = nil
		}
		f.Output = head + f.Output[start:end] + tail
	}
	if size := jsonSize(f.Exchanges); size > b.l.MaxOutput {
		f.Exchanges = append([]harness.Exchange(nil), f.Exchanges...)
		for i := range f.Exchanges {
			e := &f.Exchanges[i]
			e.RequestBody, _ = cutCount(e.RequestBody, b.l.MaxBody)
			e.ResponseBody, _ = cutCount(e.ResponseBody, b.l.MaxBody)
		}
		om.ExchangeBytes = size - jsonSize(f.Exchanges)
	}
	size := len(f.Output) + jsonSize(f.Exchanges) + len(f.Message) + len(f.FailingRequest)
	if _, first := b.first[f.Finding]; !first {
		// The finding's example repeats it.
		size *= 2
	}
	b.detail += size
	if om.Output > 0 || om.ExchangeBytes > 0 {
		om.Why = fmt.Sprintf("output kept to its last %d bytes, exchange bodies to %d bytes each", b.l.MaxOutput, b.l.MaxBody)
		b.note(f, om)
	}
}

// repeat cuts a failure to what names it: spec, state, location, finding, the start of its
// message and failing request, its first notes.
func (b *bounder) repeat(f *Failure, why string) {
	om := Omitted{Why: why, Output: len(f.Output), Exchanges: len(f.Exchanges), ExchangeBytes: jsonSize(f.Exchanges)}
	f.Output, f.failingAt, f.Exchanges = "", nil, nil
	f.Message, om.Message = cutCount(f.Message, b.l.MaxMessage)
	f.FailingRequest, om.FailingRequest = cutExchange(f.FailingRequest, b.l.MaxRequest)
	if n := len(f.Notes); n > b.l.MaxNotes {
		f.Notes = f.Notes[:b.l.MaxNotes:b.l.MaxNotes]
		om.Notes = n - b.l.MaxNotes
	}
	b.note(f, om)
}

func (b *bounder) note(f *Failure, om Omitted) {
	lost := om.Output + om.ExchangeBytes + om.Message + om.FailingRequest
	if lost == 0 && om.Notes == 0 {
		return
	}
	f.Omitted = &om
	b.out.Failures++
	b.out.Bytes += lost
}

// cutExchange cuts an exchange as the output prints it to n bytes or so: its request line and
// the start of its response, which say what was sent and what came back; the request's
// headers and body go first.
func cutExchange(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	req, resp, ok := strings.Cut(s, "\n<-- ")
	if !ok {
		return cutCount(s, n)
	}
	line, rest, _ := strings.Cut(req, "\n")
	line, lostLine := cutCount(line, n/2)
	resp, lostResp := cutCount("<-- "+resp, n-min(len(line), n/2))
	if rest != "" {
		line += fmt.Sprintf("\n    … (%d bytes of the request left out)", len(rest)+1)
	}
	return line + "\n" + resp, lostLine + lostResp + len(rest) + 1
}

func jsonSize(v []harness.Exchange) int {
	if len(v) == 0 {
		return 0
	}
	data, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(data)
}
