package handler

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// jsonOf is the reference: encoding/json with HTML escaping off, as writeJSON answered before.
func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// TestReplyEncoderMatchesEncodingJSON: the reply encoder writes exactly encoding/json's bytes,
// for every byte value in strings and keys, and for the kinds of values replies hold.
func TestReplyEncoderMatchesEncodingJSON(t *testing.T) {
	var every strings.Builder
	for b := range 256 {
		every.WriteByte(byte(b))
	}
	type view struct {
		ID      int      `json:"id"`
		Content string   `json:"content"`
		Flags   []string `json:"flags"`
		Omitted *int     `json:"omitted,omitempty"`
	}
	var nilMap map[string]any
	var nilList []any
	values := map[string]any{
		"every byte":    every.String(),
		"html":          `<p>a & b</p> <a href="x">`,
		"unicode":       "naïve \u2028 \u2029 😀 \x7f",
		"invalid utf-8": "a\xffb\xc0",
		"escapes":       "quote \" backslash \\ newline \n tab \t bell \a formfeed \f",
		"integers":      []any{0, -1, 1 << 40, int64(math.MinInt64), int32(5), uint8(7)},
		"floats":        []any{0.0, 1.5, 1e21, 1e-7, -3.25, float32(0.1)},
		"booleans":      []any{true, false, nil},
		"empty":         Fields{},
		"nil map":       nilMap,
		"nil list":      nilList,
		"empty list":    []any{},
		"struct":        view{ID: 3, Content: "<b>x</b>", Flags: []string{"read"}},
		"structs":       []view{{ID: 1}, {ID: 2, Flags: []string{}}},
		"nested":        map[string]any{"z": map[string]any{"b": []map[string]any{{"y": 1, "x": "\u00e9"}}, "a": nil}, "a": Fields{"k": 1}},
		"events":        []events.Event{{"type": "message", "id": 3}, {"op": "add"}},
		"topics":        []realm.Topic{{Name: "lunch \"<&>\" 😀", MaxID: 12}, {Name: "", MaxID: 0}, {Name: every.String(), MaxID: -1}},
		"no topics":     []realm.Topic{},
		"nil topics":    []realm.Topic(nil),
		"time":          time.Unix(1700000000, 0).UTC(),
		"raw":           json.RawMessage(`{"b":1,"a":2}`),
	}
	values[every.String()] = "a key with every byte"
	for name, v := range values {
		data, enc, err := encodeReply(map[string]any{"v": v})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := jsonOf(t, map[string]any{"v": v}); !bytes.Equal(data, want) {
			t.Errorf("%s:\n got  %s\n want %s", name, data, want)
		}
		enc.release()
	}
	data, enc, err := encodeReply(values)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.release()
	if want := jsonOf(t, values); !bytes.Equal(data, want) {
		t.Errorf("all values:\n got  %s\n want %s", data, want)
	}
	if _, _, err := encodeReply(Fields{"nan": math.NaN()}); err == nil {
		t.Error("a NaN, which JSON cannot hold, encoded without error")
	}
}

// TestTypedReplies: a reply of fixed shape holds the envelope and the struct's fields, the same
// fields the map form of the reply holds; a body that is no JSON object is refused.
func TestTypedReplies(t *testing.T) {
	type body struct {
		ID   int    `json:"id"`
		Name string `json:"name,omitempty"`
	}
	for _, tc := range []struct {
		name    string
		env     typedEnvelope
		asMap   map[string]any
		ignored []string
	}{
		{"fields", typedEnvelope{body: body{ID: 7, Name: "x"}}, map[string]any{"id": 7, "name": "x"}, nil},
		{"an empty body", typedEnvelope{body: struct{}{}}, map[string]any{}, nil},
		{"ignored parameters", typedEnvelope{body: body{ID: 1}, ignored: []string{"a", "b"}}, map[string]any{"id": 1}, []string{"a", "b"}},
	} {
		data, enc, err := encodeReply(tc.env)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got map[string]any
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("%s: %s: %v", tc.name, data, err)
		}
		enc.release()
		want := map[string]any{"result": "success", "msg": ""}
		for k, v := range tc.asMap {
			want[k] = v
		}
		if tc.ignored != nil {
			want["ignored_parameters_unsupported"] = tc.ignored
		}
		if g, w := jsonOf(t, got), jsonOf(t, want); !bytes.Equal(g, w) {
			t.Errorf("%s: %s, want %s", tc.name, g, w)
		}
	}
	if _, _, err := encodeReply(typedEnvelope{body: []int{1}}); err == nil {
		t.Error("a list body encoded as a reply")
	}
}
