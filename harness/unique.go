package harness

import (
	"crypto/rand"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/onsi/ginkgo/v2"
)

// maxNameLength keeps names valid as channel names (60 characters on the
// real server), topics and email local parts.
const maxNameLength = 59

// nameCounter numbers the names made by this process.
var nameCounter atomic.Uint64

// fallbackRunID is used before a target is set (unit tests, early setup).
var fallbackRunID = newRunID()

// newRunID returns six random characters of [a-z0-9]: a run's names are
// told apart from another run's on a shared server.
func newRunID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		panic("harness: no randomness for the run id: " + err.Error())
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// UniqueName returns a name no other spec, process or run uses:
// prefix-<run id>-<parallel process>-<counter>, lower case [a-z0-9-], under
// 60 characters (the prefix is shortened when needed). Use it for every
// channel, topic, group, email or other name a spec creates, so specs are
// hermetic on a shared server (docs/design.md, "Hermetic specs").
func UniqueName(prefix string) string {
	run := fallbackRunID
	if t, ok := TryCurrent(); ok && t.RunID != "" {
		run = t.RunID
	}
	return uniqueName(run, prefix)
}

// uniqueName is UniqueName with an explicit run id, for Connect, which runs
// before the target is current.
func uniqueName(run, prefix string) string {
	suffix := "-" + run +
		"-" + strconv.Itoa(ginkgo.GinkgoParallelProcess()) +
		"-" + strconv.FormatUint(nameCounter.Add(1), 36)
	p := sanitizeName(prefix)
	if room := maxNameLength - len(suffix); len(p) > room {
		p = strings.TrimRight(p[:room], "-")
	}
	if p == "" {
		p = "x"
	}
	return p + suffix
}

// sanitizeName lower-cases and maps everything outside [a-z0-9] to single
// dashes.
func sanitizeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}
