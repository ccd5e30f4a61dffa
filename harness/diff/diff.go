// Package diff compares two recorded runs of the suite (exchanges.jsonl of each, as
// chatconform diff writes them): per spec, the verdict on each side, and what the two servers
// answered differently where the document does not decide: the HTTP status, the error code and
// message, fields one side sends and the other does not, field types, and the events.
package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/report"
)

// Spec is one spec's differences.
type Spec struct {
	Spec string `json:"spec"`
	// StateA and StateB are the spec's outcome on each side (passed, failed, skipped, …), and
	// ReasonA and ReasonB why it did not pass there.
	StateA  string `json:"state_a"`
	StateB  string `json:"state_b"`
	ReasonA string `json:"reason_a,omitempty"`
	ReasonB string `json:"reason_b,omitempty"`
	// Differences are what the two servers answered differently, one line each.
	Differences []string `json:"differences,omitempty"`
}

// Compare lists the specs whose verdicts or exchanges differ, in the order of their names, each
// with every difference it shows.
func Compare(a, b map[string]report.SpecExchanges) []Spec {
	names := slices.Sorted(maps.Keys(a))
	for name := range b {
		if _, ok := a[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var out []Spec
	for _, name := range names {
		sa, inA := a[name]
		sb, inB := b[name]
		d := Spec{Spec: name, StateA: stateOf(sa, inA), StateB: stateOf(sb, inB), ReasonA: firstLine(sa.Reason), ReasonB: firstLine(sb.Reason)}
		if inA && inB {
			d.Differences = exchanges(sa.Exchanges, sb.Exchanges)
		}
		if d.StateA != d.StateB || len(d.Differences) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// firstLine is a reason's first line: enough to tell a failure from a level not reached.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func stateOf(s report.SpecExchanges, present bool) string {
	if !present {
		return "not in this run"
	}
	return s.State
}

// exchanges compares the requests of one kind (method and path, with the run's names and the
// objects' IDs taken out) in the order each side sent them: the k-th of a kind on one side
// with the k-th on the other. The event queue's answers are compared as one stream of event
// types, as a spec polls it as often as it needs to.
func exchanges(a, b []harness.Exchange) []string {
	ka, kb := byKind(a), byKind(b)
	var out []string
	for _, kind := range union(ka, kb) {
		la, lb := ka[kind], kb[kind]
		if kind == eventsKind {
			if ta, tb := eventTypes(la), eventTypes(lb); !slices.Equal(ta, tb) {
				out = append(out, fmt.Sprintf("%s: events %v on A, %v on B", kind, ta, tb))
			}
			continue
		}
		// How often a request was sent is the suite's doing (a shared channel set up by
		// whichever spec needs it first), not the server's: only the answers are compared.
		for i := range min(len(la), len(lb)) {
			for _, d := range answers(la[i], lb[i]) {
				out = append(out, fmt.Sprintf("%s #%d: %s", kind, i+1, d))
			}
		}
	}
	return out
}

// eventsKind is the kind of the event queue's polls.
const eventsKind = "GET /events"

var (
	// uniqueSuffix is what harness.UniqueName appends: -<run id>-<process>-<counter>.
	uniqueSuffix = regexp.MustCompile(`-[a-z0-9]{6}-[0-9]+-[a-z0-9]+`)
	email        = regexp.MustCompile(`[^\s'"<>]+@[^\s'"<>]+`)
	number       = regexp.MustCompile(`[0-9]+`)
)

// normal takes out of a text what differs from run to run on any server: the run's names,
// the accounts (which of the cast a spec gets depends on the order specs run in) and the
// numbers (IDs, times, counts).
func normal(s string) string {
	s = email.ReplaceAllString(uniqueSuffix.ReplaceAllString(s, "-*"), "<email>")
	return number.ReplaceAllString(s, "#")
}

func byKind(list []harness.Exchange) map[string][]harness.Exchange {
	out := map[string][]harness.Exchange{}
	for _, ex := range list {
		path := ex.URL
		if i := strings.Index(path, "://"); i >= 0 {
			if j := strings.IndexByte(path[i+3:], '/'); j >= 0 {
				path = path[i+3+j:]
			}
		}
		path, _, _ = strings.Cut(path, "?")
		path = strings.TrimPrefix(path, "/api/v1") // the API's paths as the document writes them
		if strings.HasPrefix(path, "/_fake/") {
			continue // the fake's control API is the harness's, not the server's API
		}
		segments := strings.Split(path, "/")
		for i, seg := range segments {
			if strings.ContainsAny(seg, "0123456789") {
				segments[i] = "#" // an ID, or a file's random path
			}
		}
		kind := ex.Method + " " + normal(strings.Join(segments, "/"))
		out[kind] = append(out[kind], ex)
	}
	return out
}

func union(a, b map[string][]harness.Exchange) []string {
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// answers compares two answers to the same request.
func answers(a, b harness.Exchange) []string {
	var out []string
	if a.Status != b.Status {
		out = append(out, fmt.Sprintf("HTTP status %d on A, %d on B", a.Status, b.Status))
	}
	ja, jb := decode(a.ResponseBody), decode(b.ResponseBody)
	if ja == nil || jb == nil {
		return out
	}
	if a.Status >= 400 || b.Status >= 400 || ja["result"] == "error" || jb["result"] == "error" {
		for _, key := range []string{"code", "msg"} {
			va, vb := fmt.Sprint(ja[key]), fmt.Sprint(jb[key])
			if normal(va) != normal(vb) {
				out = append(out, fmt.Sprintf("error %s %q on A, %q on B", key, va, vb))
			}
		}
	}
	sa, sb := map[string]string{}, map[string]string{}
	shape("", ja, sa)
	shape("", jb, sb)
	for _, path := range slices.Sorted(maps.Keys(sa)) {
		tb, ok := sb[path]
		switch {
		case !ok && isField(path, sb):
			out = append(out, fmt.Sprintf("field %s only on A", path))
		case ok && differentTypes(path, sa[path], tb):
			out = append(out, fmt.Sprintf("field %s is %s on A, %s on B", path, sa[path], tb))
		}
	}
	for _, path := range slices.Sorted(maps.Keys(sb)) {
		if _, ok := sa[path]; !ok && isField(path, sa) {
			out = append(out, fmt.Sprintf("field %s only on B", path))
		}
	}
	return out
}

// differentTypes compares the types seen at a path. Below an array's elements or a map's
// entries each side saw only the elements it had (a channel with a creator, one without), so
// there the types differ only when no type was seen on both sides.
func differentTypes(path, a, b string) bool {
	if a == b {
		return false
	}
	if !strings.Contains(path, "[]") && !strings.Contains(path, "{}") {
		return true
	}
	for _, t := range strings.Split(a, "|") {
		if slices.Contains(strings.Split(b, "|"), t) {
			return false
		}
	}
	return true
}

// isField says whether a path missing from other is a field the other side left out of an
// object it sent, rather than data it did not have: an array's elements and a map's entries
// come and go with the data, and so does all below them.
func isField(path string, other map[string]string) bool {
	if strings.HasSuffix(path, "[]") || strings.HasSuffix(path, "{}") {
		return false
	}
	parent := ""
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		parent = path[:i]
	}
	return other[parent] == "object"
}

func decode(body string) map[string]any {
	var v map[string]any
	if json.Unmarshal([]byte(body), &v) != nil {
		return nil
	}
	return v
}

// shape records the JSON types at every path of v ("null|string" where elements differ):
// object keys by name, array elements as "[]" (the union of their shapes). A map keyed by IDs
// or emails (presence, profile data) has data for keys, not fields: its entries are "{}",
// like an array's elements.
func shape(path string, v any, out map[string]string) {
	typ := func(t string) {
		if seen := out[path]; seen != "" && !slices.Contains(strings.Split(seen, "|"), t) {
			types := append(strings.Split(seen, "|"), t)
			slices.Sort(types)
			t = strings.Join(types, "|")
		}
		out[path] = t
	}
	switch x := v.(type) {
	case map[string]any:
		typ("object")
		keyedByData := len(x) > 0
		for k := range x {
			keyedByData = keyedByData && (email.MatchString(k) || number.FindString(k) == k)
		}
		for k, child := range x {
			if keyedByData {
				k = "{}"
			}
			shape(strings.TrimPrefix(path+"."+k, "."), child, out)
		}
	case []any:
		typ("array")
		for _, child := range x {
			shape(path+"[]", child, out)
		}
	case string:
		typ("string")
	case float64:
		typ("number")
	case bool:
		typ("boolean")
	case nil:
		typ("null")
	}
}

// eventTypes is the stream of event types the polls answered, heartbeats left out (they come
// with time, not with what the spec did).
func eventTypes(polls []harness.Exchange) []string {
	types := []string{}
	for _, ex := range polls {
		var body struct {
			Events []struct {
				Type string `json:"type"`
				Op   string `json:"op"`
			} `json:"events"`
		}
		if json.Unmarshal([]byte(ex.ResponseBody), &body) != nil {
			continue
		}
		for _, e := range body.Events {
			if e.Type == "heartbeat" {
				continue
			}
			if e.Op != "" {
				types = append(types, e.Type+"/"+e.Op)
			} else {
				types = append(types, e.Type)
			}
		}
	}
	return types
}

// Group is one difference and the specs that show it: a server that answers one way
// everywhere differs in every spec that sends the request, and says so once.
type Group struct {
	// Difference is the verdicts ("verdict: passed on A, skipped on B: …") or the answer
	// ("GET /users/me: field extra only on A") that differ.
	Difference string   `json:"difference"`
	Specs      []string `json:"specs"`
}

// occurrence is the " #2" Compare gives the k-th request of a kind: the same difference in the
// first and the second request of a spec is one difference.
var occurrence = regexp.MustCompile(` #[0-9]+: `)

// Groups groups the specs by difference: the verdicts first, then the answers, each with the
// most specs first.
func Groups(specs []Spec) []Group {
	var out []Group
	index := map[string]int{}
	add := func(diff, spec string) {
		i, ok := index[diff]
		if !ok {
			i = len(out)
			index[diff] = i
			out = append(out, Group{Difference: diff})
		}
		if !slices.Contains(out[i].Specs, spec) {
			out[i].Specs = append(out[i].Specs, spec)
		}
	}
	for _, s := range specs {
		if s.StateA != s.StateB {
			add(verdict(s), s.Spec)
		}
		for _, d := range s.Differences {
			add(occurrence.ReplaceAllString(d, ": "), s.Spec)
		}
	}
	isVerdict := func(g Group) bool { return strings.HasPrefix(g.Difference, "verdict: ") }
	slices.SortStableFunc(out, func(a, b Group) int {
		if va, vb := isVerdict(a), isVerdict(b); va != vb {
			if va {
				return -1
			}
			return 1
		}
		return len(b.Specs) - len(a.Specs)
	})
	return out
}

// verdict says how a spec's verdicts differ, with the reason of each side that did not pass.
func verdict(s Spec) string {
	v := fmt.Sprintf("verdict: %s on A, %s on B", s.StateA, s.StateB)
	for _, r := range []struct{ side, reason string }{{"A", s.ReasonA}, {"B", s.ReasonB}} {
		if r.reason != "" {
			v += fmt.Sprintf("; on %s: %s", r.side, r.reason)
		}
	}
	return v
}

// maxSpecsShown bounds the specs Write lists under one difference; diff.json has them all.
const maxSpecsShown = 5

// Write prints the differences for a reader: one block per difference, with the specs that
// show it.
func Write(w io.Writer, specs []Spec) {
	if len(specs) == 0 {
		fmt.Fprintln(w, "no differences: every spec had the same verdict and the same answers on both sides")
		return
	}
	groups := Groups(specs)
	for _, g := range groups {
		fmt.Fprintf(w, "%s (%d specs)\n", g.Difference, len(g.Specs))
		for i, spec := range g.Specs {
			if i == maxSpecsShown {
				fmt.Fprintf(w, "    … and %d more\n", len(g.Specs)-i)
				break
			}
			fmt.Fprintf(w, "    %s\n", spec)
		}
	}
	verdicts := 0
	for _, s := range specs {
		if s.StateA != s.StateB {
			verdicts++
		}
	}
	fmt.Fprintf(w, "\n%d differences in %d specs (%d specs differ in their verdict); every spec of each in diff.json\n", len(groups), len(specs), verdicts)
}
