package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chatconform/chatconform/harness/report"
)

// progress stands between Ginkgo's default reporter and the console. The reporter marks each
// spec that passed or was skipped with one character; progress counts those marks instead of
// printing them and shows where the run stands (specs done of the total, failures so far,
// elapsed): on a terminal as one line rewritten in place, elsewhere as a plain line at every
// tenth of the run. Everything else the reporter writes (a failure with its exchanges, what a
// spec records as information, the summary) goes through on lines of its own, with the
// directory the runner was built in taken out of its paths.
type progress struct {
	out      io.Writer
	terminal bool
	now      func() time.Time

	mu                  sync.Mutex
	start               time.Time
	done, failed, total int
	shown               bool // on a terminal: the line is on screen
	printed             int  // elsewhere: the count last printed
	showDue             bool // elsewhere: a spec's header was printed, the line is due after it

	// failures, when set, bounds what is printed of failed specs (report.Console): the first of
	// each finding in full, the others on one line each, in place of the reporter's block.
	failures interface {
		Next() (report.ConsoleEntry, bool)
	}
	omitting omission
	// delimiter: the reporter's closing delimiter after a one-line failure was left out, and
	// the next block in full needs one.
	delimiter bool
}

// omission is the part of the reporter's output being left out.
type omission int

const (
	omitNothing   omission = iota
	omitBlock              // a failed spec's block, to its closing delimiter
	omitNewline            // the newline after that delimiter
	omitSummaryUp          // the reporter's list of every failed spec, up to "Ran N of M Specs"
)

func newProgress(out io.Writer, terminal bool) *progress {
	return &progress{out: out, terminal: terminal, now: time.Now}
}

// newBoundedProgress is a progress that also bounds the failures it prints, through a console
// the suite's specs report to.
func newBoundedProgress(out io.Writer, terminal bool) *progress {
	p := newProgress(out, terminal)
	c := report.NewConsole()
	report.UseConsole(c)
	p.failures = c
	return p
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
	// failureList heads the reporter's closing list of every failed spec.
	failureList = regexp.MustCompile(`^\s*Summarizing [0-9]+ Failures?:`)
	delimiter   = strings.Repeat("-", 30)
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
	failed := false
	if header != nil {
		p.done++
		if failed = failedState.MatchString(header[1]); failed {
			p.failed++
		}
	}
	out := b
	switch p.omitting {
	case omitBlock:
		if strings.TrimSpace(text) == delimiter {
			p.omitting, p.delimiter = omitNewline, true
		}
		return len(b), nil
	case omitNewline:
		p.omitting = omitNothing
		if text == "\n" {
			return len(b), nil
		}
	case omitSummaryUp:
		if !strings.HasPrefix(strings.TrimLeft(text, "\n"), "Ran ") {
			return len(b), nil
		}
		p.omitting = omitNothing
	}
	if p.failures != nil && failed {
		if e, ok := p.failures.Next(); ok && e.Replace {
			p.omitting = omitBlock
			out = []byte(e.Line + "\n")
		} else if ok {
			out = append([]byte(p.opening()+e.Line+"\n"), b...)
		}
	} else if p.failures != nil && failureList.MatchString(text) {
		p.omitting = omitSummaryUp
		out = []byte(fmt.Sprintf("\n%s%d specs failed, each listed above (the first of each finding in full)\n", p.opening(), p.failed))
	} else if strings.TrimSpace(text) == delimiter {
		p.delimiter = false // the reporter's own
	} else if strings.TrimSpace(text) != "" {
		out = append([]byte(p.opening()), b...)
	}
	if p.shown {
		fmt.Fprint(p.out, "\r\x1b[2K") // the block replaces the line, which comes back after it
		p.shown = false
	}
	// The header's suite path and the failures' locations name the build directory.
	out = []byte(report.TrimBuildPaths(string(out)))
	if _, err := p.out.Write(out); err != nil {
		return 0, err
	}
	// Elsewhere the line follows the spec's header once that line is complete; on a terminal
	// it comes back with the next mark.
	p.showDue = p.showDue || header != nil && !p.terminal
	if p.showDue && bytes.HasSuffix(out, []byte("\n")) {
		p.showDue = false
		p.show()
	}
	return len(b), nil
}

// opening is the delimiter a block printed in full needs when the one before it was left out
// (the reporter printed it, and does not repeat it).
func (p *progress) opening() string {
	if !p.delimiter {
		return ""
	}
	p.delimiter = false
	return delimiter + "\n"
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
