package harness

import (
	"fmt"
	"strings"
	"testing"
)

func TestBoundFailure(t *testing.T) {
	long := make([]string, 1000)
	for i := range long {
		long[i] = fmt.Sprintf("  line %d", i)
	}
	short := "expected: object containing key \"msg\"\n\nactual value:\n  {}"
	for _, c := range []struct {
		name      string
		msg       string
		wantLines int    // at most
		want      string // kept
		gone      string // left out
	}{
		{"short message unchanged", short, 4, short, ""},
		{"long actual value bounded", "missing key\n\nactual value:\n" + strings.Join(long, "\n") + "\n\ndiff:\n  -a\n  +b",
			3 + maxFailureSection + 4, "  line 999", "  line 500"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := boundFailure(c.msg)
			if n := strings.Count(got, "\n") + 1; n > c.wantLines {
				t.Errorf("%d lines, want at most %d:\n%s", n, c.wantLines, got)
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("lost %q:\n%s", c.want, got)
			}
			if c.gone != "" && strings.Contains(got, c.gone+"\n") {
				t.Errorf("kept %q", c.gone)
			}
			if c.gone != "" && (!strings.Contains(got, "lines left out") || !strings.HasSuffix(got, "diff:\n  -a\n  +b") || !strings.HasPrefix(got, "missing key\n\nactual value:\n  line 0\n")) {
				t.Errorf("head, tail or the note of what was cut missing:\n%s", got)
			}
			if c.gone == "" && got != c.msg {
				t.Errorf("changed a short message:\n%s", got)
			}
		})
	}
}
