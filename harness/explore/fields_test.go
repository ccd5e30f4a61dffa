package explore_test

import (
	"strings"
	"testing"

	"github.com/chatconform/chatconform/harness/explore"
)

// TestFieldTableIsValid: every row of specs/catalog/fields.yaml has a known rule, determined
// rows name catalog requirements, and free rows quote docs/chat-api.md verbatim (or say why
// the document does not name the field).
func TestFieldTableIsValid(t *testing.T) {
	tab := table(t)
	if len(tab.Rows()) < 100 {
		t.Errorf("the field table has %d rows; it lost some", len(tab.Rows()))
	}
}

// TestFieldTableRefusesBadRows: each kind of mistake in a row is refused, naming the row.
func TestFieldTableRefusesBadRows(t *testing.T) {
	doc := []byte("Payload fields of events: not shown.\n")
	cases := []struct{ name, row, want string }{
		{"unknown rule", `{reply: a, path: b, rule: roughly, requirements: [MSG-01]}`, "unknown rule"},
		{"determined without requirements", `{reply: a, path: b, rule: exact}`, "needs its requirements"},
		{"unknown requirement", `{reply: a, path: b, rule: exact, requirements: [MSG-99]}`, "unknown requirement MSG-99"},
		{"free without a line", `{reply: a, path: b, rule: free}`, "needs the document's line"},
		{"line not in the document", `{reply: a, path: b, rule: free, line: "the server may do as it likes"}`, "is not in the document"},
		{"line on a determined field", `{reply: a, path: b, rule: exact, requirements: [MSG-01], line: "Payload fields of events: not shown."}`, "a line belongs to a free field"},
		{"unknown key", `{reply: a, path: b, rule: free, line: "Payload fields of events: not shown.", note: x}`, "field note not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := explore.ParseTable([]byte("- "+c.row+"\n"), doc)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	dup := "- {reply: a, path: b, rule: free, line: \"Payload fields of events: not shown.\"}\n"
	if _, err := explore.ParseTable([]byte(dup+dup), doc); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Fatalf("a row given twice: got %v", err)
	}
}

// TestFieldTableLookup: a field inside an object row is the object's own row; an event's
// field falls back on the rows of every event.
func TestFieldTableLookup(t *testing.T) {
	tab := table(t)
	for _, c := range []struct {
		reply, path string
		rule        explore.Rule
	}{
		{"get_messages", "messages[].reactions[].user_id", "id:user"},
		{"fetch_message", "message.timestamp", explore.Time},
		{"fetch_message_html", "message.content", explore.Free},
		{"fetch_message", "message.content", explore.Exact},
		{"event subscription update", "property", explore.Exact},
		{"event message", "message", explore.Free},
		{"get_users", "realm_users[].email", explore.Exact}, // the object's row, not the reply's catch-all
		{"get_users", "realm_plan_type", explore.Free},
	} {
		row, ok := tab.Lookup(c.reply, c.path)
		if !ok || row.Rule != c.rule {
			t.Errorf("%s %s: got %v (found %t), want %s", c.reply, c.path, row.Rule, ok, c.rule)
		}
	}
	if _, ok := tab.Lookup("get_messages", "messages[].no_such_field"); ok {
		t.Error("a field without a row was found")
	}
}

// TestErrorsNeverCompareMsg: an operation's own error rows fall back on those of every
// error, whose msg compares as text (not its words), before the envelope's rows, whose msg
// is determined.
func TestErrorsNeverCompareMsg(t *testing.T) {
	tab := table(t)
	for _, reply := range []string{"error", "error edit_message_both"} {
		if row, ok := tab.Lookup(reply, "msg"); !ok || row.Rule != explore.Text {
			t.Errorf("%s msg: %v, want text", reply, row.Rule)
		}
	}
}
