package explore

import (
	"bytes"
	"encoding/json"
	"maps"
	"strings"
	"testing"
)

func decode(t *testing.T, text string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func testSide(name string) *Side {
	return &Side{Name: name, prefix: "x0-", syms: newSymbols(), names: strings.NewReplacer()}
}

// TestCompareReplies: what the comparator tells apart and what it must not, one case per rule.
func TestCompareReplies(t *testing.T) {
	tab, err := ParseTable([]byte(`
- {reply: "*", path: result, rule: exact, requirements: [CONV-05]}
- {reply: "*", path: msg, rule: exact, requirements: [CONV-05]}
- {reply: error, path: result, rule: exact, requirements: [ERR-01]}
- {reply: error, path: code, rule: exact, requirements: [ERR-04]}
- {reply: error, path: msg, rule: text, line: "msg", requirements: [ERR-01]}
- {reply: op, path: id, rule: "id:message", requirements: [MSG-01]}
- {reply: op, path: flags, rule: set, only: [read], requirements: [MSG-23], line: "flags"}
- {reply: op, path: order, rule: exact, requirements: [MSG-28]}
- {reply: op, path: at, rule: time, requirements: [MSG-11]}
- {reply: op, path: name, rule: exact, requirements: [MSG-04]}
- {reply: op, path: avatar, rule: nullable, requirements: [MSG-15], line: "null"}
- {reply: op, path: since, rule: "since:last_update_id", requirements: [OP04-09]}
`), []byte("msg flags null"))
	if err != nil {
		t.Fatal(err)
	}
	since5 := map[string]string{"last_update_id": "5"}
	cases := []struct {
		name, target, reference string
		// params are the request's (none: nil)
		params  map[string]string
		differs bool
	}{
		{"an error msg's words are free", `{"result":"error","code":"BAD_REQUEST","msg":"a"}`, `{"result":"error","code":"BAD_REQUEST","msg":"b"}`, nil, false},
		{"an empty error msg is not", `{"result":"error","code":"BAD_REQUEST","msg":""}`, `{"result":"error","code":"BAD_REQUEST","msg":"b"}`, nil, true},
		{"error code is not", `{"result":"error","code":"BAD_REQUEST","msg":"a"}`, `{"result":"error","code":"UNAUTHORIZED_PRINCIPAL","msg":"a"}`, nil, true},
		{"success against error", `{"result":"success","msg":""}`, `{"result":"error","code":"BAD_REQUEST","msg":""}`, nil, true},
		{"IDs map by first sight", `{"result":"success","msg":"","id":700}`, `{"result":"success","msg":"","id":3}`, nil, false},
		{"a set in another order", `{"result":"success","msg":"","flags":["read","starred","x"]}`, `{"result":"success","msg":"","flags":["read"]}`, nil, false},
		{"a set without an element", `{"result":"success","msg":"","flags":["starred"]}`, `{"result":"success","msg":"","flags":["read"]}`, nil, true},
		{"an ordered list in another order", `{"result":"success","msg":"","order":[1,2]}`, `{"result":"success","msg":"","order":[2,1]}`, nil, true},
		{"times within the tolerance", `{"result":"success","msg":"","at":1000}`, `{"result":"success","msg":"","at":1002}`, nil, false},
		{"times beyond it", `{"result":"success","msg":"","at":1000}`, `{"result":"success","msg":"","at":1010}`, nil, true},
		{"the run's prefix", `{"result":"success","msg":"","name":"x0-c1"}`, `{"result":"success","msg":"","name":"x0-c1"}`, nil, false},
		{"a string where null is allowed", `{"result":"success","msg":"","avatar":"https://a"}`, `{"result":"success","msg":"","avatar":null}`, nil, false},
		{"null where a string is required", `{"result":"success","msg":"","avatar":null}`, `{"result":"success","msg":"","avatar":"https://a"}`, nil, true},
		{"a field only the target adds", `{"result":"success","msg":"","extra":1}`, `{"result":"success","msg":""}`, nil, false},
		{"a determined field the target leaves out", `{"result":"success","msg":""}`, `{"result":"success","msg":"","name":"n"}`, nil, true},
		{"an update ID above the value passed, where the reference's is equal", `{"result":"success","msg":"","since":90}`, `{"result":"success","msg":"","since":5}`, since5, false},
		{"an update ID equal to the value passed (no updates), as the reference's", `{"result":"success","msg":"","since":5}`, `{"result":"success","msg":"","since":5}`, since5, false},
		{"an update ID below the value passed", `{"result":"success","msg":"","since":4}`, `{"result":"success","msg":"","since":5}`, since5, true},
		{"no updates where the reference had some", `{"result":"success","msg":"","since":5}`, `{"result":"success","msg":"","since":7}`, since5, true},
		{"with none passed, any ID where the reference returned data", `{"result":"success","msg":"","since":70}`, `{"result":"success","msg":"","since":3}`, nil, false},
		{"with none passed, not -1 where the reference returned none", `{"result":"success","msg":"","since":0}`, `{"result":"success","msg":"","since":-1}`, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmp := &comparer{table: tab, tolerance: 3, a: testSide("target"), b: testSide("reference"), tally: tally{gaps: map[string]bool{}}}
			ra, rb := Reply{Body: decode(t, c.target)}, Reply{Body: decode(t, c.reference)}
			cmp.compareReplies("op", "member", c.params, ra, rb)
			if got := len(cmp.diffs) > 0; got != c.differs {
				t.Fatalf("differs = %t, want %t (%+v)", got, c.differs, cmp.diffs)
			}
		})
	}
}

// TestCompareRecordsGaps: a field the reference sends without a row is a gap, not a
// difference.
func TestCompareRecordsGaps(t *testing.T) {
	tab, err := ParseTable([]byte(`- {reply: "*", path: result, rule: exact, requirements: [CONV-05]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	cmp := &comparer{table: tab, a: testSide("target"), b: testSide("reference"), tally: tally{gaps: map[string]bool{}}}
	cmp.compareReplies("op", "member", nil, Reply{Body: decode(t, `{"result":"success"}`)}, Reply{Body: decode(t, `{"result":"success","new":1}`)})
	if len(cmp.diffs) != 0 || !cmp.gaps["op new"] {
		t.Fatalf("diffs %v, gaps %v", cmp.diffs, cmp.gaps)
	}
}

// TestStepTokens: a step's tokens resolve to each side's own values; what a side lacks
// becomes an ID no server has.
func TestStepTokens(t *testing.T) {
	s := testSide("target")
	s.syms.bind("channel", "c1", "40")
	s.syms.symbol("message", "900")
	got := s.resolve("/messages/{message#0}?to={channel:c1}&name={name:c1}&gone={message#5}")
	if want := "/messages/900?to=40&name=x0-c1&gone=" + missingID; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(Step{Path: "/messages/{message#0}"})
	if !strings.Contains(buf.String(), "{message#0}") {
		t.Fatalf("a step's tokens must survive its replay file: %s", buf.String())
	}
}

// TestSameSeedSameSequence: the generator draws the same steps from the same seed and the
// same answers, and other steps from another seed.
func TestSameSeedSameSequence(t *testing.T) {
	draw := func(seed uint64) string {
		g := newGenerator(seed, 60, 10000, "general chat")
		var steps []Step
		for i := range 300 {
			steps = append(steps, g.next())
			g.observe(i%3 != 0)
		}
		data, _ := json.Marshal(steps)
		return string(data)
	}
	first, again := draw(7), draw(7)
	if first != again {
		t.Fatal("seed 7 drew two different sequences")
	}
	if first == draw(8) {
		t.Fatal("seeds 7 and 8 drew the same sequence")
	}
}

// TestCompareKeepsWhatItChecked: the requirements of the determined fields present on either
// side are checked, which the reports pass; a free field's and an absent one's are not. The
// free fields whose values differed are masked; those that agree are not.
func TestCompareKeepsWhatItChecked(t *testing.T) {
	tab, err := ParseTable([]byte(`
- {reply: "*", path: result, rule: exact, requirements: [CONV-05]}
- {reply: op, path: name, rule: exact, requirements: [MSG-04]}
- {reply: op, path: id, rule: "id:message", requirements: [MSG-01]}
- {reply: op, path: note, rule: free, line: "note"}
- {reply: op, path: same, rule: free, line: "note"}
`), []byte("note"))
	if err != nil {
		t.Fatal(err)
	}
	cmp := &comparer{table: tab, a: testSide("target"), b: testSide("reference"), tally: newTally()}
	cmp.compareReplies("op", "member", nil, Reply{Body: decode(t, `{"result":"success","note":"a","same":[1],"id":7}`)}, Reply{Body: decode(t, `{"result":"success","note":"b","same":[1]}`)})
	if want := map[string]bool{"CONV-05": true, "MSG-01": true}; !maps.Equal(cmp.checked, want) {
		t.Fatalf("checked %v, want %v", cmp.checked, want)
	}
	if want := map[string]bool{"op note": true}; !maps.Equal(cmp.masked, want) {
		t.Fatalf("masked %v, want %v", cmp.masked, want)
	}
}

// TestCoalesceFlagEvents: a batch operation's flag events compare as one, whatever the batch
// size; other events, and flag events of another op or flag, stay apart.
func TestCoalesceFlagEvents(t *testing.T) {
	list := decode(t, `[
		{"type":"update_message_flags","op":"add","flag":"read","messages":[3,2]},
		{"type":"update_message_flags","op":"add","flag":"read","messages":[1]},
		{"type":"update_message_flags","op":"remove","flag":"read","messages":[1]},
		{"type":"message","id":9},
		{"type":"update_message_flags","op":"remove","flag":"read","messages":[4]}]`).([]any)
	got := coalesce(list)
	want := []string{"update_message_flags add", "update_message_flags remove", "message", "update_message_flags remove"}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: %v", len(got), len(want), got)
	}
	for i, ev := range got {
		if eventType(ev) != want[i] {
			t.Errorf("event %d is %s, want %s", i, eventType(ev), want[i])
		}
	}
	if msgs := got[0].(map[string]any)["messages"].([]any); len(msgs) != 3 {
		t.Errorf("the merged event's messages are %v, want the three of both batches", msgs)
	}
	if len(list[0].(map[string]any)["messages"].([]any)) != 2 {
		t.Error("coalesce changed the event it merged into")
	}
}
