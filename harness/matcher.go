package harness

import (
	"encoding/json"
	"fmt"
	"github.com/onsi/gomega/types"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// describeEvent renders an event on one line: id, type and op first, then
// the other fields by name, long values shortened.
func describeEvent(ev map[string]any) string {
	return clip(describeFields(ev, []string{"id", "type", "op"}), 400)
}

// describeMatcher renders an expected event.
func describeMatcher(m types.GomegaMatcher) string {
	if em, ok := m.(*eventMatcher); ok {
		return "Event{" + describeFields(em.fields, []string{"type", "op"}) + "}"
	}
	return clip(fmt.Sprintf("%T %+v", m, m), 300)
}

func describeFields(fields map[string]any, first []string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		if !slices.Contains(first, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range append(slices.Clone(first), keys...) {
		v, ok := fields[k]
		if !ok {
			continue
		}
		parts = append(parts, k+"="+clip(compactValue(v), 120))
	}
	return strings.Join(parts, " ")
}

// compactValue renders a value: plain words bare, the rest as JSON
// (matchers by their type).
func compactValue(v any) string {
	if m, ok := v.(types.GomegaMatcher); ok {
		return fmt.Sprintf("<%T>", m)
	}
	if s, ok := v.(string); ok && isWord(s) {
		return s
	}
	return compactJSON(v)
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

func isWord(s string) bool {
	if s == "" || s == "null" || s == "true" || s == "false" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	_, err := strconv.ParseFloat(s, 64)
	return err != nil // "5" would read as the number 5
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// Event matches an event (a JSON-decoded map[string]any) whose fields
// include all of fields; extra fields are allowed. Values compare loosely
// the JSON way: numbers by value (int 5 matches JSON 5.0), strings and
// bools by value (named string types too), nil only an explicit null,
// nested maps by the same rule (their fields included, extra allowed),
// slices element by element with equal length. A Gomega matcher as a value
// is applied to the field, e.g. Event(map[string]any{"message_ids":
// ContainElement(7)}).
func Event(fields map[string]any) types.GomegaMatcher {
	return &eventMatcher{fields: fields}
}

type eventMatcher struct {
	fields map[string]any
}

// Match implements types.GomegaMatcher.
func (m *eventMatcher) Match(actual any) (bool, error) {
	if _, ok := asStringMap(actual); !ok {
		return false, fmt.Errorf("Event matcher expects an event object (map[string]any), got %T", actual)
	}
	return len(m.mismatches(actual)) == 0, nil
}

// FailureMessage implements types.GomegaMatcher.
func (m *eventMatcher) FailureMessage(actual any) string {
	return fmt.Sprintf("Expected event\n    %s\nto include the fields of\n    %s\nbut %s",
		describeActual(actual), describeMatcher(m), strings.Join(m.mismatches(actual), "; "))
}

// NegatedFailureMessage implements types.GomegaMatcher.
func (m *eventMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("Expected event\n    %s\nnot to include the fields of\n    %s", describeActual(actual), describeMatcher(m))
}

func describeActual(actual any) string {
	if ev, ok := actual.(map[string]any); ok {
		return describeEvent(ev)
	}
	return clip(compactJSON(actual), 400)
}

// mismatches lists, field by field in name order, how actual differs.
func (m *eventMatcher) mismatches(actual any) []string {
	return subsetMismatches("", reflect.ValueOf(m.fields), actual)
}

// subsetMismatches checks that actual, a map with string keys, holds every
// key of want (a map with string keys) with a matching value.
func subsetMismatches(path string, want reflect.Value, actual any) []string {
	got, ok := asStringMap(actual)
	if !ok {
		return []string{fmt.Sprintf("%s is %s, want an object", fieldName(path), describeKind(actual))}
	}
	keys := make([]string, 0, want.Len())
	for _, k := range want.MapKeys() {
		keys = append(keys, k.String())
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		sub := k
		if path != "" {
			sub = path + "." + k
		}
		w := want.MapIndex(reflect.ValueOf(k).Convert(want.Type().Key())).Interface()
		v, present := got[k]
		if !present {
			out = append(out, fmt.Sprintf("%s is missing (want %s)", fieldName(sub), clip(compactValue(w), 120)))
			continue
		}
		out = append(out, valueMismatches(sub, w, v)...)
	}
	return out
}

// valueMismatches compares one value of Event's fields with the event's.
func valueMismatches(path string, want, got any) []string {
	if m, ok := want.(types.GomegaMatcher); ok {
		ok, err := m.Match(got)
		if err != nil {
			return []string{fmt.Sprintf("%s: %v", fieldName(path), err)}
		}
		if !ok {
			return []string{fmt.Sprintf("%s: %s", fieldName(path), clip(m.FailureMessage(got), 500))}
		}
		return nil
	}
	wrong := func() []string {
		return []string{fmt.Sprintf("%s is %s, want %s", fieldName(path), clip(compactValue(got), 120), clip(compactValue(want), 120))}
	}
	if want == nil {
		if got != nil {
			return wrong()
		}
		return nil
	}
	wv := reflect.ValueOf(want)
	if wn, ok := number(wv); ok {
		gn, ok := numberOf(got)
		if !ok || gn != wn {
			return wrong()
		}
		return nil
	}
	switch wv.Kind() {
	case reflect.String, reflect.Bool:
		gv := reflect.ValueOf(got)
		if got == nil || gv.Kind() != wv.Kind() {
			return wrong()
		}
		if (wv.Kind() == reflect.String && gv.String() != wv.String()) || (wv.Kind() == reflect.Bool && gv.Bool() != wv.Bool()) {
			return wrong()
		}
		return nil
	case reflect.Map:
		if wv.Type().Key().Kind() != reflect.String {
			break
		}
		return subsetMismatches(path, wv, got)
	case reflect.Slice, reflect.Array:
		if wv.Kind() == reflect.Slice && wv.IsNil() {
			break // a nil slice compares by DeepEqual below
		}
		gv := reflect.ValueOf(got)
		if got == nil || (gv.Kind() != reflect.Slice && gv.Kind() != reflect.Array) {
			return []string{fmt.Sprintf("%s is %s, want a list %s", fieldName(path), describeKind(got), clip(compactValue(want), 120))}
		}
		if gv.Len() != wv.Len() {
			return []string{fmt.Sprintf("%s has %d elements %s, want %d %s", fieldName(path), gv.Len(), clip(compactValue(got), 120), wv.Len(), clip(compactValue(want), 120))}
		}
		var out []string
		for i := 0; i < wv.Len(); i++ {
			out = append(out, valueMismatches(fmt.Sprintf("%s[%d]", path, i), wv.Index(i).Interface(), gv.Index(i).Interface())...)
		}
		return out
	}
	if !reflect.DeepEqual(want, got) {
		return wrong()
	}
	return nil
}

// number returns the value of a numeric reflect.Value.
func number(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}

// numberOf reads a number from an event: any numeric type or json.Number.
func numberOf(v any) (float64, bool) {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		return f, err == nil
	}
	if v == nil {
		return 0, false
	}
	return number(reflect.ValueOf(v))
}

// asStringMap returns v as a map with string keys.
func asStringMap(v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, m != nil
	}
	rv := reflect.ValueOf(v)
	if v == nil || rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String || rv.IsNil() {
		return nil, false
	}
	out := make(map[string]any, rv.Len())
	for _, k := range rv.MapKeys() {
		out[k.String()] = rv.MapIndex(k).Interface()
	}
	return out, true
}

func fieldName(path string) string {
	if path == "" {
		return "the event"
	}
	return "field " + strconv.Quote(path)
}

// describeKind names the JSON kind of v, with the value when short.
func describeKind(v any) string {
	if v == nil {
		return "null"
	}
	if _, ok := numberOf(v); ok {
		return "the number " + compactJSON(v)
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.String:
		return "the string " + clip(compactJSON(v), 80)
	case reflect.Bool:
		return compactJSON(v)
	case reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return fmt.Sprintf("a %T", v)
}
