package realm

import (
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// TestCompilePattern: a pattern is refused by the real server's bound on its program (RE2's
// default memory), not compiled for seconds, and one well within it is taken.
func TestCompilePattern(t *testing.T) {
	for _, tc := range []struct {
		name, pattern, wantMsg string
	}{
		{"1 MiB of literal text", strings.Repeat("a", 1<<20), "Bad regular expression: pattern too large - compile failed"},
		{"one character past the bound", strings.Repeat("a", maxPatternInsts+1), "Bad regular expression: pattern too large - compile failed"},
		{"100,000 characters", strings.Repeat("a", 100_000), ""},
		{"a long class is one instruction", "[" + strings.Repeat("a-z", 100_000) + "]", ""},
		{"empty", "", "Bad regular expression: empty pattern"},
		{"repetition past 1000", "(?P<id>a{1001})", "Bad regular expression: error parsing regexp: invalid repeat count: `{1001}`"},
	} {
		_, err := compilePattern(tc.pattern)
		switch {
		case tc.wantMsg == "" && err != nil:
			t.Errorf("%s: %v, want the pattern taken", tc.name, err)
		case tc.wantMsg != "" && (err == nil || apierr.From(err).Msg != tc.wantMsg):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.wantMsg)
		}
	}
}
