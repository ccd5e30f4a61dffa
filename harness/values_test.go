package harness

import (
	"reflect"
	"testing"

	"github.com/gavv/httpexpect/v2"
)

func TestValueHelpers(t *testing.T) {
	rec := &recorder{}
	arr := httpexpect.NewArray(rec, []any{
		map[string]any{"id": 1.0, "name": "a"},
		map[string]any{"id": 2.0, "name": "b"},
	})
	if got := IntsOf(arr, "id"); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("IntsOf = %v", got)
	}
	if got := StringsOf(arr, "name"); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("StringsOf = %v", got)
	}
	if f := rec.take(); len(f) > 0 {
		t.Errorf("failures: %v", f)
	}

	IntsOf(httpexpect.NewArray(rec, []any{map[string]any{"id": 1.5}}), "id")
	StringsOf(httpexpect.NewArray(rec, []any{map[string]any{"name": 3.0}}), "name")
	IntsOf(httpexpect.NewArray(rec, []any{"not an object"}), "id")
	if f := rec.take(); len(f) != 3 {
		t.Errorf("%d failures for three bad arrays: %v", len(f), f)
	}

	tests := []struct {
		v    any
		fail bool
	}{{"x", false}, {nil, false}, {"", false}, {1.0, true}, {false, true}, {map[string]any{}, true}}
	for _, tt := range tests {
		ExpectStringOrNull(httpexpect.NewValue(rec, tt.v))
		if got := len(rec.take()) > 0; got != tt.fail {
			t.Errorf("ExpectStringOrNull(%v) failed = %v, want %v", tt.v, got, tt.fail)
		}
	}

	obj := httpexpect.NewObject(rec, map[string]any{"id": 7.0, "half": 7.5, "text": "7"})
	for key, want := range map[string]bool{"id": true, "half": false, "text": false, "missing": false} {
		if n, ok := OptionalInt(obj, key); ok != want || (ok && n != 7) {
			t.Errorf("OptionalInt(%s) = %d, %v", key, n, ok)
		}
	}
	if f := rec.take(); len(f) > 0 {
		t.Errorf("OptionalInt asserted something: %v", f)
	}
}

func TestConstants(t *testing.T) {
	if len(WrongAPIKey) != 32 {
		t.Errorf("WrongAPIKey has %d characters, want 32 like a real key", len(WrongAPIKey))
	}
	if UnusedID > 1<<31-1 {
		t.Errorf("UnusedID %d does not fit in int32", UnusedID)
	}
}
