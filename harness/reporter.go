package harness

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/onsi/ginkgo/v2"
)

// ginkgoReporter fails the running spec on an httpexpect assertion failure,
// with credentials redacted from the message and the failure located at the
// spec's line rather than inside httpexpect.
type ginkgoReporter struct{}

// Errorf implements httpexpect.Reporter.
func (ginkgoReporter) Errorf(format string, args ...any) {
	ginkgo.Fail(RedactText(fmt.Sprintf(format, args...)), httpexpectDepth()+1)
}

// httpexpectDepth counts the httpexpect frames directly above Errorf's
// caller chain, so Fail can skip them; Ginkgo skips the harness helpers
// marked with GinkgoHelper itself.
func httpexpectDepth() int {
	pcs := make([]uintptr, 64)
	// Skip runtime.Callers, httpexpectDepth and Errorf.
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	depth := 0
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "github.com/gavv/httpexpect/") {
			return depth
		}
		depth++
		if !more {
			return depth
		}
	}
}
