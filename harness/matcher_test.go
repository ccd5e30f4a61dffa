package harness

import (
	"strings"
	"testing"

	. "github.com/onsi/gomega"
)

func TestEventMatcher(t *testing.T) {
	type named string
	msg := map[string]any{"id": 7.0, "content": "<p>hi</p>", "flags": []any{"read"}}
	ev := map[string]any{
		"id": 3.0, "type": "message", "op": "add", "n": 5.0, "f": 2.5, "ok": true, "s": "5", "null": nil,
		"message": msg, "ids": []any{1.0, 2.0}, "subs": []any{map[string]any{"stream_id": 9.0, "name": "x"}},
	}
	tests := []struct {
		name   string
		fields map[string]any
		actual any
		match  bool
		reason string // in the failure message
	}{
		{"no fields", map[string]any{}, ev, true, ""},
		{"same values, extra fields allowed", map[string]any{"type": "message", "op": "add"}, ev, true, ""},
		{"int matches a JSON number", map[string]any{"n": 5, "id": int64(3)}, ev, true, ""},
		{"uint and float32", map[string]any{"n": uint8(5), "f": float32(2.5)}, ev, true, ""},
		{"number by value", map[string]any{"n": 6}, ev, false, `field "n" is 5, want 6`},
		{"fraction is not an int", map[string]any{"f": 2}, ev, false, `field "f" is 2.5, want 2`},
		{"number is not a string", map[string]any{"n": "5"}, ev, false, `field "n" is 5, want "5"`},
		{"string is not a number", map[string]any{"s": 5}, ev, false, `field "s" is "5", want 5`},
		{"bool", map[string]any{"ok": true}, ev, true, ""},
		{"bool mismatch", map[string]any{"ok": false}, ev, false, `field "ok" is true, want false`},
		{"bool is not a string", map[string]any{"ok": "true"}, ev, false, `field "ok" is true, want "true"`},
		{"named string type", map[string]any{"type": named("message")}, ev, true, ""},
		{"missing field", map[string]any{"op": "add", "property": "x"}, ev, false, `field "property" is missing (want x)`},
		{"nil matches null", map[string]any{"null": nil}, ev, true, ""},
		{"nil is not a missing field", map[string]any{"absent": nil}, ev, false, `field "absent" is missing`},
		{"nil is not zero", map[string]any{"n": nil}, ev, false, `field "n" is 5, want null`},
		{"nested map, extra fields allowed", map[string]any{"message": map[string]any{"id": 7}}, ev, true, ""},
		{"nested map with a nested slice", map[string]any{"message": map[string]any{"flags": []string{"read"}}}, ev, true, ""},
		{"nested mismatch", map[string]any{"message": map[string]any{"id": 8}}, ev, false, `field "message.id" is 7, want 8`},
		{"nested missing", map[string]any{"message": map[string]any{"sender_id": 4}}, ev, false, `field "message.sender_id" is missing`},
		{"nested map is not a string", map[string]any{"type": map[string]any{"a": 1}}, ev, false, `field "type" is the string "message", want an object`},
		{"slice by element", map[string]any{"ids": []int{1, 2}}, ev, true, ""},
		{"slice order", map[string]any{"ids": []int{2, 1}}, ev, false, `field "ids[0]" is 1, want 2`},
		{"slice length", map[string]any{"ids": []int{1}}, ev, false, `field "ids" has 2 elements [1,2], want 1 [1]`},
		{"slice of maps by subset", map[string]any{"subs": []any{map[string]any{"stream_id": 9}}}, ev, true, ""},
		{"slice is not an object", map[string]any{"message": []int{7}}, ev, false, `field "message" is an object, want a list [7]`},
		{"several mismatches, all named", map[string]any{"op": "remove", "n": 1}, ev, false, `field "n" is 5, want 1; field "op" is add, want remove`},
		{"matcher value", map[string]any{"ids": ContainElement(BeNumerically("==", 2))}, ev, true, ""},
		{"failing matcher value", map[string]any{"n": BeNumerically(">", 9)}, ev, false, `field "n": Expected`},
		{"named map type", map[string]any{"op": "add"}, url_values{"op": "add"}, true, ""},
	}
	for _, tt := range tests {
		m := Event(tt.fields)
		ok, err := m.Match(tt.actual)
		if err != nil || ok != tt.match {
			t.Errorf("%s: Match = %v, %v; want %v", tt.name, ok, err, tt.match)
			continue
		}
		if !tt.match && !strings.Contains(m.FailureMessage(tt.actual), tt.reason) {
			t.Errorf("%s: failure message\n%s\ndoes not contain %q", tt.name, m.FailureMessage(tt.actual), tt.reason)
		}
		if tt.match && !strings.Contains(m.NegatedFailureMessage(tt.actual), "not to include") {
			t.Errorf("%s: negated failure message %q", tt.name, m.NegatedFailureMessage(tt.actual))
		}
	}

	for _, bad := range []any{nil, "event", []any{ev}, map[int]any{1: "x"}, (map[string]any)(nil)} {
		if ok, err := Event(map[string]any{}).Match(bad); ok || err == nil {
			t.Errorf("Match(%#v) = %v, %v; want an error", bad, ok, err)
		}
	}
}

func TestDescribeEvent(t *testing.T) {
	ev := map[string]any{"value": "a b", "op": "update", "id": 12.0, "type": "subscription", "n": "5",
		"message": map[string]any{"id": 1.0}, "long": strings.Repeat("x", 500)}
	got := describeEvent(ev)
	want := `id=12 type=subscription op=update long=` + strings.Repeat("x", 120) + `… message={"id":1} n="5" value="a b"`
	if got != want {
		t.Errorf("describeEvent = %s\nwant            %s", got, want)
	}
	if got := describeMatcher(Event(map[string]any{"value": true, "type": "x"})); got != "Event{type=x value=true}" {
		t.Errorf("describeMatcher = %s", got)
	}
}
