package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// progress stands between Ginkgo's default reporter and the console. The reporter marks each
// spec that passed or was skipped with one character; progress counts those marks instead of
// printing them and shows where the run stands (specs done of the total, failures so far,
// elapsed): on a terminal as one line rewritten in place, elsewhere as a plain line at every
// tenth of the run. Everything else the reporter writes (a failure with its exchanges, what a
// spec records as information, the summary) goes through unchanged, on lines of its own.
type progress struct {
	out      io.Writer
	terminal bool
	now      func() time.Time

	mu                  sync.Mutex
	start               time.Time
	done, failed, total int
	shown               bool // on a terminal: the line is on screen
	printed             int  // elsewhere: the count last printed
}

func newProgress(out io.Writer, terminal bool) *progress {
	return &progress{out: out, terminal: terminal, now: time.Now}
}

var (
	ansiEscape = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)
	// willRun is the reporter's announcement of the specs; it marks every one of them, those a
	// filter leaves out too, so progress counts against all of them.
	willRun = regexp.MustCompile(`Will run [0-9]+ of ([0-9]+) specs`)
	// specHeader heads the reporter's block for a spec it says more of than a mark: one that
	// failed, or recorded information ("• [FAILED] [0.01 seconds]", "• [0.003 seconds]").
	specHeader  = regexp.MustCompile(`(?m)^[•SP] \[([A-Z]+)?`)
	failedState = regexp.MustCompile(`^(FAILED|PANICKED|TIMEDOUT|INTERRUPTED|ABORTED)$`)
)

// marks counts the spec marks a write consists of, or returns false when it holds anything else.
func marks(text string) (int, bool) {
	n := 0
	for _, r := range text {
		switch r {
		case '•', 'S', 'P':
			n++
		default:
			return 0, false
		}
	}
	return n, n > 0
}

func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.start.IsZero() {
		p.start = p.now()
	}
	text := ansiEscape.ReplaceAllString(string(b), "")
	if n, ok := marks(strings.TrimSpace(text)); ok {
		p.done += n
		p.show()
		return len(b), nil
	}
	if m := willRun.FindStringSubmatch(text); m != nil {
		p.total, _ = strconv.Atoi(m[1])
	}
	header := specHeader.FindStringSubmatch(text)
	if header != nil {
		p.done++
		if failedState.MatchString(header[1]) {
			p.failed++
		}
	}
	if p.shown {
		fmt.Fprint(p.out, "\r\x1b[2K") // the block replaces the line, which comes back after it
		p.shown = false
	}
	if _, err := p.out.Write(b); err != nil {
		return 0, err
	}
	if header != nil && !p.terminal {
		p.show() // on a terminal the line comes back with the next mark
	}
	return len(b), nil
}

// show prints where the run stands: always on a terminal, elsewhere at each tenth of the
// run (each 50 specs while the total is not known).
func (p *progress) show() {
	line := fmt.Sprintf("chatconform: %d of %d specs done, %d failed, %s", p.done, p.total, p.failed,
		p.now().Sub(p.start).Round(time.Second))
	if p.terminal {
		fmt.Fprint(p.out, "\r\x1b[2K"+line)
		p.shown = true
		return
	}
	step := 50
	if p.total > 0 {
		step = max(p.total/10, 1)
	}
	if p.done/step > p.printed/step || p.done == p.total {
		fmt.Fprintln(p.out, line)
		p.printed = p.done
	}
}
