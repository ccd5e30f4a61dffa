package report

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
)

// Finding is one way the target fails: the same assertion failing the same way, in however
// many specs. A server with one systemic bug (a field missing from every reply) fails hundreds
// of specs through one assertion of the harness; the finding names it once, with what it takes
// down.
type Finding struct {
	// ID is stable across runs of the same suite on the same failure: "F" and 8 hex digits of
	// the site and the message's shape.
	ID string `json:"id"`
	// Site is where the failing assertion is (file:line), the harness helper for a shared one.
	Site string `json:"site,omitempty"`
	// Message is the failure message with what varies between specs (ids, numbers, names,
	// dumped values) left out.
	Message string `json:"message"`
	// Count is the number of failed specs.
	Count int `json:"count"`
	// Specs are the failed specs, in the order of the requirements they fail (the catalog's).
	Specs []string `json:"specs"`
	// Requirements are the failed requirements among whose failures this one is.
	Requirements []string `json:"requirements"`
	// Sole are those of Requirements that fail only by this finding: fixing it may pass them.
	Sole []string `json:"sole,omitempty"`
	// Example is the failure of its first spec, in full.
	Example Failure `json:"example"`
}

// findingOf returns the finding a failed spec belongs to: its ID, its site and its message's
// shape.
func findingOf(s types.SpecReport) specFinding {
	site := assertionSite(s.Failure.Location)
	shape := messageShape(harness.RedactText(s.Failure.Message))
	if s.Failure.ForwardedPanic != "" {
		shape = strings.TrimSpace(shape + "\npanic: " + messageShape(s.Failure.ForwardedPanic))
	}
	sum := sha256.Sum256([]byte(s.State.String() + "\x00" + site + "\x00" + shape))
	return specFinding{id: "F" + hex.EncodeToString(sum[:4]), site: site, shape: shape}
}

// assertionSite is the innermost frame of the failure's stack outside httpexpect (which the
// harness's reporter already skips): the line of the assertion itself, which a shared helper
// of the harness (harness.Success) has in common across specs, where the failure's Location is
// the spec's own line. Without a stack it is the Location.
func assertionSite(cl types.CodeLocation) string {
	lines := strings.Split(strings.TrimSpace(cl.FullStackTrace), "\n")
	// The stack alternates a function line and a "\tfile:line +0x…" line.
	for i := 1; i < len(lines); i += 2 {
		if strings.Contains(lines[i-1], "github.com/gavv/httpexpect") || strings.Contains(lines[i-1], "github.com/onsi/gomega") {
			continue
		}
		file, _, _ := strings.Cut(strings.TrimSpace(lines[i]), " +0x")
		return shortPath(file)
	}
	if cl.FileName == "" {
		return ""
	}
	return shortPath(cl.String())
}

// shortPath keeps a file's last directory and name: "harness/envelope.go:77", the same on
// every machine.
func shortPath(file string) string {
	parts := strings.Split(file, "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}

var (
	// varying are the tokens that differ between specs failing the same way: words with a
	// digit in them (ids, numbers, the run's random names, timestamps).
	varying = regexp.MustCompile(`[A-Za-z0-9_.]*[0-9][A-Za-z0-9_.]*`)
	// uniqueSuffix is what harness.UniqueName appends to a name: -<run id>-<process>-<counter>,
	// where the run id and the counter may hold no digit.
	uniqueSuffix = regexp.MustCompile(`-[a-z0-9]{6}-[0-9]+-[a-z0-9]+\b`)
	// timestamped is Ginkgo's " @ 01/02/06 15:04:05.000" after a location.
	timestamped = regexp.MustCompile(` @ [0-9/]+ [0-9:.]+`)
	// method is the request's method in httpexpect's assertion chain: the same check of the
	// envelope fails the same way whichever method the spec sent.
	method = regexp.MustCompile(`\bRequest\("[A-Z]+"\)`)
)

// messageShape is a failure message as specs failing the same way share it: a value dumped
// over several lines (the reply an assertion looked into) is kept as its first line, and
// every token with a digit becomes N. A one-line value stays, so "expected BAD_REQUEST, got
// success" and "…, got error" remain two findings.
func messageShape(msg string) string {
	msg = method.ReplaceAllString(timestamped.ReplaceAllString(msg, ""), "Request(…)")
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		out = append(out, vary(line))
		if !opens(line) {
			continue
		}
		// A run of several deeper-indented lines after an opening line is a dump: its first
		// line stays.
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "" && indent(lines[j]) > indent(line) {
			j++
		}
		if j-i-1 > 1 {
			out = append(out, vary(strings.TrimRight(lines[i+1], " \t")), strings.Repeat(" ", indent(lines[i+1]))+"…")
			i = j - 1
		}
	}
	return strings.Join(out, "\n")
}

// vary replaces what varies between specs in a line: the suffixes of unique names, then every
// token with a digit.
func vary(line string) string {
	return varying.ReplaceAllString(uniqueSuffix.ReplaceAllString(line, "-N"), "N")
}

func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// opens reports whether a line starts a dumped value that goes on over the next lines.
func opens(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasSuffix(t, "{") || strings.HasSuffix(t, "[") || strings.HasSuffix(t, ":") || strings.HasSuffix(t, "(")
}

// findingsOf groups the report's failures into findings, most specs first, and marks every
// failure with its finding's ID.
func findingsOf(c *Conformance, keys map[string]specFinding) []Finding {
	out := []Finding{}
	index := map[string]int{}
	add := func(f *Failure, req string) {
		k, ok := keys[f.Spec]
		if !ok {
			return
		}
		f.Finding = k.id
		i, seen := index[k.id]
		if !seen {
			i = len(out)
			index[k.id] = i
			out = append(out, Finding{ID: k.id, Site: k.site, Message: k.shape, Specs: []string{}, Requirements: []string{}, Example: *f})
		}
		if !slices.Contains(out[i].Specs, f.Spec) {
			out[i].Specs = append(out[i].Specs, f.Spec)
			out[i].Count++
		}
		if req != "" && !slices.Contains(out[i].Requirements, req) {
			out[i].Requirements = append(out[i].Requirements, req)
		}
	}
	for i := range c.OtherFailures {
		add(&c.OtherFailures[i], "")
	}
	for ri := range c.Requirements {
		r := &c.Requirements[ri]
		var ids []string
		for fi := range r.Failures {
			add(&r.Failures[fi], r.ID)
			ids = appendOnce(ids, r.Failures[fi].Finding)
		}
		if len(ids) == 1 && ids[0] != "" {
			out[index[ids[0]]].Sole = append(out[index[ids[0]]].Sole, r.ID)
		}
	}
	for i := range out {
		out[i].Example.Finding = out[i].ID
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return len(out[i].Requirements) > len(out[j].Requirements)
	})
	return out
}

// specFinding is a failed spec's finding, by spec.
type specFinding struct{ id, site, shape string }

// findingKeys computes the finding of every failed spec (and suite node) of a run.
func findingKeys(r types.Report) map[string]specFinding {
	keys := map[string]specFinding{}
	for _, s := range r.SpecReports {
		if !s.Failed() {
			continue
		}
		keys[specName(s)] = findingOf(s)
	}
	return keys
}

// specName is how the reports name a spec: its full text, or for a suite node its type.
func specName(s types.SpecReport) string {
	if name := s.FullText(); name != "" {
		return name
	}
	return s.LeafNodeType.String()
}
