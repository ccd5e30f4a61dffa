package harness

import (
	"io"
	"net/http"
	"reflect"
	"strings"
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
}

func TestConstants(t *testing.T) {
	if len(WrongAPIKey) != 32 {
		t.Errorf("WrongAPIKey has %d characters, want 32 like a real key", len(WrongAPIKey))
	}
	if UnusedID > 1<<31-1 {
		t.Errorf("UnusedID %d does not fit in int32", UnusedID)
	}
}

func TestCreatedID(t *testing.T) {
	tests := []struct {
		body string
		id   int
		ok   bool
	}{
		{`{"result":"success","msg":"","id":7}`, 7, true},
		{`{"result":"success","msg":"","id":7.5}`, 0, false},
		{`{"result":"success","msg":""}`, 0, false},
		{`{"result":"error","msg":"no","code":"BAD_REQUEST","id":7}`, 0, false},
		{`not json`, 0, false},
	}
	for _, tt := range tests {
		rec := &recorder{}
		resp := httpexpect.NewResponse(rec, &http.Response{
			StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(tt.body)),
		})
		id, ok := CreatedID(resp)
		if ok != tt.ok || (ok && id != tt.id) {
			t.Errorf("CreatedID(%s) = %d, %v; want %d, %v", tt.body, id, ok, tt.id, tt.ok)
		}
		if f := rec.take(); len(f) > 0 {
			t.Errorf("CreatedID(%s) asserted something: %v", tt.body, f)
		}
	}
}
