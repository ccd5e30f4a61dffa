package explore

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Difference is one determined field on which the target and the reference disagree.
type Difference struct {
	// Reply is the operation (or "event <type>") whose answer differs, Path the field.
	Reply string `json:"reply"`
	Path  string `json:"path"`
	// Target and Reference are the field's values as compared (IDs as symbols, the actors'
	// names as placeholders); absent is shown as "(absent)".
	Target    string `json:"target"`
	Reference string `json:"reference"`
	// Requirements are those of the field's row.
	Requirements []string `json:"requirements"`
	// Actor is who read the differing answer.
	Actor string `json:"actor,omitempty"`
}

// key identifies a difference across runs, for shrinking and deduplication: the same field
// differing is the same finding.
func (d Difference) key() string { return d.Reply + " " + d.Path }

// comparer compares two answers under the field table.
type comparer struct {
	table *Table
	// tolerance is how far two times may be apart, in seconds.
	tolerance float64
	a, b      *Side // target, reference
	diffs     []Difference
	// tally keeps what the comparisons saw besides differences (gaps, checked, masked); a nil
	// checked or masked is not kept.
	tally
	// settle is how long to wait before draining the event queues.
	settle time.Duration
	// params are the parameters of the request whose reply is compared (since rules).
	params map[string]string
}

const absent = "(absent)"

// compare compares a reply of the target (va) with the reference's (vb).
func (c *comparer) compare(reply, actor string, va, vb any) {
	before := len(c.diffs)
	c.walk(reply, "", va, vb)
	for i := before; i < len(c.diffs); i++ {
		c.diffs[i].Actor = actor
	}
}

func (c *comparer) differ(reply, path string, row Row, va, vb any) {
	c.diffs = append(c.diffs, Difference{Reply: reply, Path: path, Requirements: row.Requirements,
		Target: c.show(c.a, reply, path, va), Reference: c.show(c.b, reply, path, vb)})
}

// show renders a value for a finding, normalized as compared.
func (c *comparer) show(s *Side, reply, path string, v any) string {
	if v == nil {
		return absent
	}
	if row, _ := c.rowOf(reply, path); row.Rule.onItsOwn() {
		data, _ := json.Marshal(v) // canon leaves these out: each compares by its own rule
		return string(data)
	}
	data, _ := json.Marshal(c.canon(s, reply, path, v))
	return clip(string(data), 400)
}

func join(path, child string) string {
	if path == "" {
		return child
	}
	if strings.HasPrefix(child, "[") || strings.HasPrefix(child, "{") {
		return path + child
	}
	return path + "." + child
}

// rowOf is the row of a field; the whole body is compared as an exact object.
func (c *comparer) rowOf(reply, path string) (Row, bool) {
	if path == "" {
		return Row{Rule: Exact}, true
	}
	return c.table.Lookup(reply, path)
}

// walk compares one field present on both sides or on one.
func (c *comparer) walk(reply, path string, va, vb any) {
	row, ok := c.rowOf(reply, path)
	if !ok {
		// Unknown extra fields are always allowed; one the reference sends is a gap of the
		// table, which the tests fail on.
		if vb != nil {
			c.gaps[reply+" "+path] = true
		}
		return
	}
	if row.Rule == Free || row.Rule == Nullable && vb == nil && jsonType(va) == "string" {
		c.mask(reply, path, va, vb)
		return
	}
	if param, ok := row.Rule.sinceParam(); ok {
		c.compareSince(reply, path, row, param, va, vb)
		return
	}
	if va != nil || vb != nil {
		c.check(row)
	}
	if va == nil || vb == nil {
		if va != nil || vb != nil {
			c.differ(reply, path, row, va, vb)
		}
		return
	}
	switch row.Rule {
	case Type, Nullable, Text:
		if jsonType(va) != jsonType(vb) || row.Rule == Text && (va == "") != (vb == "") {
			c.differ(reply, path, row, va, vb)
		} else {
			c.mask(reply, path, va, vb)
		}
		return
	case Time:
		fa, okA := number(va)
		fb, okB := number(vb)
		if !okA || !okB || math.Abs((fa-c.a.clockOffset)-(fb-c.b.clockOffset)) > c.tolerance {
			c.differ(reply, path, row, va, vb)
		}
		return
	}
	if kind, ok := row.Rule.idKind(); ok {
		if c.idSymbol(c.a, kind, va) != c.idSymbol(c.b, kind, vb) {
			c.differ(reply, path, row, va, vb)
		}
		return
	}
	if kind, ok := row.Rule.idKeysKind(); ok || row.Rule == Map {
		ma, okA := va.(map[string]any)
		mb, okB := vb.(map[string]any)
		if !okA || !okB {
			c.differ(reply, path, row, va, vb)
			return
		}
		ka, kb := c.keyed(c.a, kind, row, ma), c.keyed(c.b, kind, row, mb)
		for _, k := range union(ka, kb) {
			c.walk(reply, join(path, "{}"), ka[k], kb[k])
		}
		return
	}
	switch a := va.(type) {
	case map[string]any:
		b, ok := vb.(map[string]any)
		if !ok {
			c.differ(reply, path, row, va, vb)
			return
		}
		for _, k := range union(a, b) {
			child := join(path, k)
			childRow, known := c.rowOf(reply, child)
			if !known && b[k] == nil {
				continue // a field the target adds
			}
			if known && childRow.Rule == Type && present(a, k) != present(b, k) && a[k] == nil && b[k] == nil {
				// Under type, null is a type of its own: a field "present as an array" is
				// not null where the other side leaves it out (walk sees both as nil).
				c.check(childRow)
				c.differ(reply, child, childRow, a[k], b[k])
				continue
			}
			c.walk(reply, child, a[k], b[k])
		}
	case []any:
		b, ok := vb.([]any)
		if !ok {
			c.differ(reply, path, row, va, vb)
			return
		}
		elem := join(path, "[]")
		a, b = c.scoped(c.a, reply, elem, row, a), c.scoped(c.b, reply, elem, row, b)
		a, b = only(row, a), only(row, b)
		if len(a) != len(b) {
			c.differ(reply, path, row, a, b)
			return
		}
		if row.Rule == Set {
			a, b = c.sorted(c.a, reply, elem, a), c.sorted(c.b, reply, elem, b)
		}
		for i := range a {
			c.walk(reply, elem, a[i], b[i])
		}
	default:
		if c.scalar(c.a, va) != c.scalar(c.b, vb) {
			c.differ(reply, path, row, va, vb)
		}
	}
}

func present(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// mask notes a field the table lets pass when its values differ.
func (c *comparer) mask(reply, path string, va, vb any) {
	if c.masked != nil && c.rawText(c.a, va) != c.rawText(c.b, vb) {
		c.masked[reply+" "+path] = true
	}
}

// rawText is a value as sent, with the run's names normalized; unlike canon it maps no ID, so
// that reading a free field never numbers an ID the determined fields have not seen yet.
func (c *comparer) rawText(s *Side, v any) string {
	data, _ := json.Marshal(v)
	return s.normalize(string(data))
}

// scoped drops the elements of an array whose scope field is no ID the run knows: a real
// server's lists hold its own channels and users besides the run's.
func (c *comparer) scoped(s *Side, reply, elem string, row Row, list []any) []any {
	if row.Scope == "" {
		return list
	}
	field := join(elem, row.Scope)
	frow, _ := c.table.Lookup(reply, field)
	kind, isID := frow.Rule.idKind()
	return slices.DeleteFunc(slices.Clone(list), func(v any) bool {
		obj, _ := v.(map[string]any)
		if name, ok := obj[row.Scope].(string); ok && !isID {
			return !strings.HasPrefix(name, s.prefix) // named by the run
		}
		_, known := s.syms.lookup(kind, rawText(obj[row.Scope]))
		return !known
	})
}

// only keeps the elements the row names, when it names some.
func only(row Row, list []any) []any {
	if len(row.Only) == 0 {
		return list
	}
	return slices.DeleteFunc(slices.Clone(list), func(v any) bool {
		s, ok := v.(string)
		return !ok || !slices.Contains(row.Only, s)
	})
}

// sorted orders a set's elements by their compared form, so that two sets compare element by
// element.
func (c *comparer) sorted(s *Side, reply, elem string, list []any) []any {
	type keyed struct {
		k string
		v any
	}
	ks := make([]keyed, len(list))
	for i, v := range list {
		data, _ := json.Marshal(c.canon(s, reply, elem, v))
		ks[i] = keyed{string(data), v}
	}
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].k < ks[j].k })
	out := make([]any, len(ks))
	for i, k := range ks {
		out[i] = k.v
	}
	return out
}

// canon is a value as compared: IDs as symbols, strings normalized, free fields and times
// left out (times differ within the tolerance).
func (c *comparer) canon(s *Side, reply, path string, v any) any {
	row, ok := c.rowOf(reply, path)
	if !ok || row.Rule == Free || row.Rule.onItsOwn() {
		return nil
	}
	if row.Rule == Type {
		return jsonType(v)
	}
	if row.Rule == Text {
		return fmt.Sprintf("%s, empty: %t", jsonType(v), v == "")
	}
	if kind, ok := row.Rule.idKind(); ok {
		return c.idSymbol(s, kind, v)
	}
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		if kind, ok := row.Rule.idKeysKind(); ok || row.Rule == Map {
			for k, child := range c.keyed(s, kind, row, x) {
				out[k] = c.canon(s, reply, join(path, "{}"), child)
			}
			return out
		}
		for k, child := range x {
			if cv := c.canon(s, reply, join(path, k), child); cv != nil {
				out[k] = cv
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, child := range x {
			out[i] = c.canon(s, reply, join(path, "[]"), child)
		}
		return out
	case nil:
		return nil
	case string:
		return c.scalar(s, v)[len("s:"):]
	}
	return v
}

// idSymbol is an ID as compared: its symbol, or the value itself when it is no ID (null, a
// string where an integer belongs).
func (c *comparer) idSymbol(s *Side, kind string, v any) string {
	if n, ok := v.(json.Number); ok {
		if _, err := n.Int64(); err == nil {
			return s.syms.symbol(kind, n.String())
		}
	}
	if text, ok := v.(string); ok && text != "" {
		// A string identifier (a realm's) maps by first sight as a number does.
		return s.syms.symbol(kind, "s:"+text)
	}
	return fmt.Sprintf("%T:%v", v, v)
}

// keyed is an object keyed by data (Map) or by IDs (idkeys) as compared: data keys
// normalized, ID keys as their symbols, and, under a scope, only the run's own keys: "prefix"
// keeps the keys the run named (a shared account's other data), "actors" the keys that are
// the cast's emails, "known" the IDs the run already knows (a real server's other users).
func (c *comparer) keyed(s *Side, kind string, row Row, m map[string]any) map[string]any {
	if row.Rule != Map {
		return c.mapKeys(s, kind, row.Scope == "known", m)
	}
	out := map[string]any{}
	for k, v := range m {
		switch n := s.normalize(k); {
		case row.Scope == "prefix" && !strings.HasPrefix(k, s.prefix):
		case row.Scope == "actors" && !strings.HasPrefix(n, "<"):
		default:
			out[n] = v
		}
	}
	return out
}

// mapKeys renames an object's ID keys to their symbols; knownOnly drops the IDs the run
// has not seen yet.
func (c *comparer) mapKeys(s *Side, kind string, knownOnly bool, m map[string]any) map[string]any {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // first sight in a stable order
	out := map[string]any{}
	for _, k := range keys {
		if _, known := s.syms.lookup(kind, k); knownOnly && !known {
			continue
		}
		out[c.idSymbol(s, kind, json.Number(k))] = m[k]
	}
	return out
}

// idInText finds the IDs the real server writes into generated text (notification
// messages): a channel in a narrow link, the message it is near, a user mention.
var idInText = regexp.MustCompile(`(channel/)([0-9]+)(-)|(near/)([0-9]+)()|(\|)([0-9]+)(\*\*)`)

// scalar is a string, number or boolean as compared.
func (c *comparer) scalar(s *Side, v any) string {
	switch x := v.(type) {
	case string:
		x = idInText.ReplaceAllStringFunc(x, func(m string) string {
			g := idInText.FindStringSubmatch(m)
			for i, kind := range []string{"channel", "message", "user"} {
				if g[3*i+2] != "" {
					return g[3*i+1] + s.syms.symbol(kind, g[3*i+2]) + g[3*i+3]
				}
			}
			return m
		})
		return "s:" + s.normalize(x)
	case json.Number:
		return "n:" + x.String()
	}
	return fmt.Sprintf("%T:%v", v, v)
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// rawText is an ID as a token resolves it: its decimal text.
func rawText(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return fmt.Sprint(v)
}

// union returns the keys of both maps, sorted.
func union(a, b map[string]any) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// compareSince compares a since field (an update ID, "since:last_update_id") by where each
// side's value stands against the request's parameter rather than by value, each server's
// counter being its own: below the value passed is wrong; equal, which means no updates, is
// wrong where the reference had updates; and with nothing passed, -1 (no data) is required
// where the reference answered it. A field absent on either side is not compared here.
func (c *comparer) compareSince(reply, path string, row Row, param string, va, vb any) {
	fa, okA := number(va)
	fb, okB := number(vb)
	if !okA || !okB {
		if va != nil && vb != nil && jsonType(va) != jsonType(vb) {
			c.differ(reply, path, row, va, vb)
		}
		return
	}
	c.check(row)
	passed, err := strconv.ParseFloat(c.params[param], 64)
	wrong := fb == -1 && fa != -1
	if err == nil {
		wrong = fa < passed || fa == passed && fb > passed
	}
	if wrong {
		c.differ(reply, path, row, va, vb)
	} else if fa != fb {
		c.mask(reply, path, va, vb)
	}
}

// check records that the row's requirements were compared.
func (c *comparer) check(row Row) {
	if c.checked != nil {
		for _, id := range row.Requirements {
			c.checked[id] = true
		}
	}
}
