package api

import "testing"

// TestChannelTarget: `to` of a channel message is an ID, a JSON list of one name, a JSON string
// or the name itself; anything else is taken as a name (and then not found).
func TestChannelTarget(t *testing.T) {
	for _, tc := range []struct {
		to   string
		id   int
		name string
	}{
		{"5", 5, ""}, {" 5 ", 5, ""}, {"+5", 5, ""}, {"-1", -1, ""},
		{"general", 0, "general"}, {"5 general", 0, "5 general"}, {"-", 0, "-"},
		{`["general"]`, 0, "general"}, {` ["general"] `, 0, "general"}, {`["a","b"]`, 0, `["a","b"]`}, {`[`, 0, `[`},
		{`"general"`, 0, "general"}, {`"unterminated`, 0, `"unterminated`}, {"", 0, ""},
	} {
		if id, name := channelTarget(tc.to); id != tc.id || name != tc.name {
			t.Errorf("channelTarget(%q) = %d, %q; want %d, %q", tc.to, id, name, tc.id, tc.name)
		}
	}
}
