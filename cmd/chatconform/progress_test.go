package main

import (
	"strings"
	"testing"
	"time"
)

// TestProgress feeds the progress writer what Ginkgo's default reporter writes for a run of
// four specs (a pass, a failure with its block, a skip, a pass with information) and checks
// what reaches the console, on a terminal and elsewhere.
func TestProgress(t *testing.T) {
	writes := []string{
		"Running Suite: chatconform conformance\n", "Will run \x1b[1m4\x1b[0m of \x1b[1m4\x1b[0m specs\n",
		"\x1b[38;5;10m•\x1b[0m",
		"\n------------------------------\n• [FAILED] [0.012 seconds]\nOperation 6 answers BAD_REQUEST\n  [FAILED] Expected BAD_REQUEST\n",
		"S",
		"\n------------------------------\n• [0.003 seconds]\nOperation 5 records what other operators match\n  Report Entries >>\n",
		"\nRan 4 of 4 Specs\n",
	}
	run := func(terminal bool) string {
		var out strings.Builder
		clock := time.Unix(0, 0)
		p := newProgress(&out, terminal)
		p.now = func() time.Time { clock = clock.Add(time.Second); return clock }
		for _, w := range writes {
			if n, err := p.Write([]byte(w)); err != nil || n != len(w) {
				t.Fatalf("Write(%q) = %d, %v", w, n, err)
			}
		}
		return out.String()
	}

	plain := run(false)
	for _, want := range []string{
		"chatconform: 1 of 4 specs done, 0 failed",
		"chatconform: 3 of 4 specs done, 1 failed",
		"chatconform: 4 of 4 specs done, 1 failed",
		"• [FAILED] [0.012 seconds]\nOperation 6 answers BAD_REQUEST\n  [FAILED] Expected BAD_REQUEST\n",
		"Operation 5 records what other operators match",
		"Ran 4 of 4 Specs",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("plain output lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "\r") || strings.Contains(plain, "•\x1b") || strings.Contains(plain, "\nS\n") {
		t.Errorf("plain output has a mark or a rewritten line:\n%q", plain)
	}

	term := run(true)
	if !strings.Contains(term, "\r\x1b[2Kchatconform: 1 of 4 specs done, 0 failed") ||
		!strings.Contains(term, "\r\x1b[2K\n------------------------------\n• [FAILED]") ||
		!strings.Contains(term, "\r\x1b[2Kchatconform: 3 of 4 specs done, 1 failed") {
		t.Errorf("terminal output does not rewrite one line around the failure block:\n%q", term)
	}
}
