package harness

import (
	"testing"

	"github.com/gavv/httpexpect/v2"
)

// TestMismatchOf: a failed assertion's chain and failure give the field's path, the rule and the
// values; only the envelope's own checks made through an envelope helper carry its requirement.
func TestMismatchOf(t *testing.T) {
	chain := func(steps ...string) []string {
		return append([]string{`Request("GET")`, "Expect()", "JSON()", "Object()"}, steps...)
	}
	value := func(v any) *httpexpect.AssertionValue { return &httpexpect.AssertionValue{Value: v} }
	for _, tc := range []struct {
		name    string
		path    []string
		failure httpexpect.AssertionFailure
		want    Mismatch
	}{
		{"a missing key", chain(`Value("msg")`),
			httpexpect.AssertionFailure{Type: httpexpect.AssertContainsKey, Actual: value(map[string]any{"result": "success"}), Expected: value("msg")},
			Mismatch{Field: "msg", Check: "present"}},
		{"a wrong value in an array's element", chain(`Value("topics")`, "Array()", "Iter[1]", "Object()", `Value("max_id")`, "Number()", "IsEqual()"),
			httpexpect.AssertionFailure{Type: httpexpect.AssertEqual, Actual: value(479), Expected: value(478)},
			Mismatch{Field: "topics[].max_id", Check: "equal", Expected: "478", Actual: "479"}},
		{"a wrong type", chain(`Value("id")`, "Number()"),
			httpexpect.AssertionFailure{Type: httpexpect.AssertType, Actual: value("12"), Expected: value([]any{"number"})},
			Mismatch{Field: "id", Check: "type number", Actual: `"12"`}},
		{"not an integer", chain(`Value("messages")`, "Value(0)", "Object()", `Value("timestamp")`, "Number()", "IsInt()"),
			httpexpect.AssertionFailure{Type: httpexpect.AssertValid, Actual: value(1.5)},
			Mismatch{Field: "messages[].timestamp", Check: "integer", Actual: "1.5"}},
		{"a key with a dot", chain(`Value("a.b")`, "String()", "IsEqual()"),
			httpexpect.AssertionFailure{Type: httpexpect.AssertEqual, Actual: value("x"), Expected: value("y")},
			Mismatch{Field: "a.b", Check: "equal", Expected: `"y"`, Actual: `"x"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mismatchOf(&httpexpect.AssertionContext{Path: tc.path}, &tc.failure)
			if got != tc.want {
				t.Errorf("mismatch %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestEnvelopesOwn: which failed checks of an envelope helper are the envelope's (its
// requirement's), and which the operation's the spec checks through it.
func TestEnvelopesOwn(t *testing.T) {
	for _, tc := range []struct {
		helper string
		m      Mismatch
		want   bool
	}{
		{"Success", Mismatch{Field: "msg", Check: "present"}, true},
		{"Success", Mismatch{Field: "msg", Check: "equal", Actual: `"OK"`, Expected: `""`}, true},
		{"Success", Mismatch{Field: "result", Check: "equal", Actual: `"error"`, Expected: `"success"`}, false},
		{"Success", Mismatch{Field: "result", Check: "equal", Actual: `"ok"`, Expected: `"success"`}, true},
		{"Success", Mismatch{Field: "result", Check: "present"}, true},
		{"Success", Mismatch{Field: "", Check: "JSON"}, false},
		{"FailsWith", Mismatch{Field: "code", Check: "equal", Actual: `"NOT_FOUND"`, Expected: `"BAD_REQUEST"`}, false},
		{"FailsWith", Mismatch{Field: "code", Check: "present"}, true},
		{"FailsWith", Mismatch{Field: "result", Check: "equal", Actual: `"success"`, Expected: `"error"`}, false},
		{"Fails", Mismatch{Field: "code", Check: "not empty"}, true},
		{"Fails", Mismatch{Field: "msg", Check: "type string"}, true},
	} {
		if got := envelopesOwn(tc.helper, tc.m); got != tc.want {
			t.Errorf("%s %+v: the envelope's own %t, want %t", tc.helper, tc.m, got, tc.want)
		}
	}
}
