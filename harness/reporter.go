package harness

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
)

// assertionHandler reports httpexpect's assertions as the default handler does, and first
// notes a failed one on the exchange whose response it was about: a spec may have sent other
// requests since (and its cleanup sends more), so the last request before the failure is not
// always the one the assertion checked.
type assertionHandler struct {
	httpexpect.DefaultAssertionHandler
}

// handlerFailure is the name of assertionHandler.Failure's frame, which Errorf skips with
// httpexpect's.
const handlerFailure = "github.com/chatconform/chatconform/harness.(*assertionHandler).Failure"

// Failure implements httpexpect.AssertionHandler.
func (h *assertionHandler) Failure(ctx *httpexpect.AssertionContext, failure *httpexpect.AssertionFailure) {
	if failure.Severity != httpexpect.SeverityError {
		h.DefaultAssertionHandler.Failure(ctx, failure)
		return
	}
	msg := boundFailure(h.Formatter.FormatFailure(ctx, failure))
	noteMismatch(mismatchOf(ctx, failure))
	if ctx.Response != nil {
		// Redacted, as ginkgoReporter hands it to Fail: the reports find the exchange by the
		// spec's failure message.
		noteFailedAssertion(ctx.Response.Raw(), RedactText(msg))
	}
	h.Reporter.Errorf("%s", msg)
}

// maxFailureSection bounds each part of a formatted failure (the actual value, the expected
// one, the diff). httpexpect prints the actual value whole and indented, so a check of one
// field of a 60-user listing ran to a thousand lines; the reply itself is already in the
// spec's output, through the exchange printer.
const maxFailureSection = 40

// boundFailure keeps the head and tail of every blank-line-separated part of msg that runs
// past maxFailureSection lines, and says how many lines it left out.
func boundFailure(msg string) string {
	parts := strings.Split(msg, "\n\n")
	for i, p := range parts {
		lines := strings.Split(p, "\n")
		if len(lines) <= maxFailureSection {
			continue
		}
		head, tail := lines[:maxFailureSection-6], lines[len(lines)-5:]
		cut := len(lines) - len(head) - len(tail)
		parts[i] = strings.Join(head, "\n") +
			fmt.Sprintf("\n  … %d lines left out (the whole reply is in the exchange above)\n", cut) +
			strings.Join(tail, "\n")
	}
	return strings.Join(parts, "\n\n")
}

// ginkgoReporter fails the running spec on an httpexpect assertion failure,
// with credentials redacted from the message and the failure located at the
// spec's line rather than inside httpexpect.
type ginkgoReporter struct{}

// Errorf implements httpexpect.Reporter.
func (ginkgoReporter) Errorf(format string, args ...any) {
	ginkgo.Fail(RedactText(fmt.Sprintf(format, args...)), httpexpectDepth()+1)
}

// httpexpectDepth counts the httpexpect frames (and the harness's assertion
// handler among them) directly above Errorf's caller chain, so Fail can skip
// them; Ginkgo skips the harness helpers marked with GinkgoHelper itself.
func httpexpectDepth() int {
	pcs := make([]uintptr, 64)
	// Skip runtime.Callers, httpexpectDepth and Errorf.
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	depth := 0
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "github.com/gavv/httpexpect/") && f.Function != handlerFailure {
			return depth
		}
		depth++
		if !more {
			return depth
		}
	}
}
