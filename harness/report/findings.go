package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
)

// Finding is one way the target fails: the same check failing the same way, in however many
// specs. A server with one systemic bug (a field missing from every reply) fails hundreds of
// specs through one assertion of the harness; the finding names it once, with what it takes
// down. Where the failed assertion said what it checked (Field), failures are one finding by
// what differs, not by where it was checked: an error code the document does not name is one
// finding at every site that checks a code.
type Finding struct {
	// ID is stable across runs of the same suite on the same failure: "F" and 8 hex digits of
	// what differs (or of the site and the message's shape).
	ID string `json:"id"`
	// Title names what differs as a bug report would: the field, the value seen and the one
	// expected (or the rule), from its first failure.
	Title string `json:"title"`
	// Site is where the failing assertion is (file:line), the harness helper for a shared one.
	Site string `json:"site,omitempty"`
	// Message is the failure message with what varies between specs (ids, numbers, names,
	// dumped values) left out.
	Message string `json:"message"`
	// Field, Check, Expected and Actual are what the failed assertion found (its first
	// failure's), when it said: the path of the checked value, the rule, the values.
	Field    string `json:"field,omitempty"`
	Check    string `json:"check,omitempty"`
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Values are the distinct wrong values of its failures, each with the one expected.
	Values []string `json:"values,omitempty"`
	// Root is the requirement the failing check belongs to whatever spec made it: CONV-05 for
	// the envelope of a success without msg.
	Root string `json:"root,omitempty"`
	// Count is the number of failed specs.
	Count int `json:"count"`
	// Specs are the failed specs, in the order of the requirements they fail (the catalog's).
	Specs []string `json:"specs"`
	// Requirements are the failed requirements among whose failures this one is.
	Requirements []string `json:"requirements"`
	// Sole are those of Requirements that fail only by this finding: fixing it may pass them.
	Sole []string `json:"sole,omitempty"`
	// Blocks are the requirements this finding blocks: every failure of theirs is a finding of
	// another requirement (Root), so their own rules were never reached.
	Blocks []string `json:"blocks,omitempty"`
	// Example is the failure of its first spec, in full.
	Example Failure `json:"example"`
}

// findingOf returns the finding a failed spec belongs to: its ID, its site, its message's shape
// and what differs.
func findingOf(s types.SpecReport) specFinding {
	site := assertionSite(s.Failure.Location)
	// Without the build directory, the same failure is one finding on every machine.
	shape := messageShape(TrimBuildPaths(harness.RedactText(s.Failure.Message)))
	if s.Failure.ForwardedPanic != "" {
		shape = strings.TrimSpace(shape + "\npanic: " + messageShape(TrimBuildPaths(s.Failure.ForwardedPanic)))
	}
	f := specFinding{site: site, shape: shape}
	key := s.State.String() + "\x00" + site + "\x00" + shape
	if m, ok := mismatchOfSpec(s); ok {
		f.mismatch = &m
		key = s.State.String() + "\x00" + mismatchKey(m, site)
	}
	f.title = titleOf(f)
	sum := sha256.Sum256([]byte(key))
	f.id = "F" + hex.EncodeToString(sum[:4])
	return f
}

// mismatchOfSpec is what the spec's failed assertion found, when it said (harness.MismatchEntry).
func mismatchOfSpec(s types.SpecReport) (harness.Mismatch, bool) {
	for i := len(s.ReportEntries) - 1; i >= 0; i-- {
		if e := s.ReportEntries[i]; e.Name == harness.MismatchEntry {
			return harness.MismatchOf(e.StringRepresentation())
		}
	}
	return harness.Mismatch{}, false
}

// undocumentedCode stands for any error code the document does not name: a server that renamed
// its codes sends one where every documented code was due, one cause at every site.
const undocumentedCode = "(a code the document does not name)"

// mismatchKey is what two failures share when they differ the same way: the requirement the
// check belongs to, the field, the rule and the values with what varies between specs left
// out. The site counts only for a check of the spec's own (Requirement empty): a wrong number
// in two specs' fields of one name is not one cause. An undocumented error code is.
func mismatchKey(m harness.Mismatch, site string) string {
	expected, actual := vary(m.Expected), vary(m.Actual)
	if isUndocumentedCode(m) {
		expected, actual, site = "", undocumentedCode, ""
	}
	if m.Requirement != "" {
		site = ""
	}
	return strings.Join([]string{"mismatch", m.Requirement, site, m.Field, m.Check, expected, actual}, "\x00")
}

// isUndocumentedCode says whether a failed check of a reply's error code found a code the
// document does not name.
func isUndocumentedCode(m harness.Mismatch) bool {
	if m.Field != "code" || m.Check != "equal" {
		return false
	}
	var code string
	if json.Unmarshal([]byte(m.Actual), &code) != nil {
		return false
	}
	return !slices.Contains(harness.DocumentedCodes, code)
}

// titleOf names what differs in one line: "msg: missing", "code: "bad_request", expected
// "BAD_REQUEST"", "topics[].max_id: 4, expected 6"; without a mismatch, the message's gist.
func titleOf(f specFinding) string {
	m := f.mismatch
	if m == nil {
		return gist(f.shape, 160)
	}
	field := m.Field
	if field == "" {
		field = "the reply"
	}
	var what string
	switch {
	case m.Check == "present":
		what = "missing"
	case m.Check == "absent":
		what = "present, expected absent"
	case m.Check == "equal":
		what = m.Actual + ", expected " + m.Expected
	case strings.HasPrefix(m.Check, "type "):
		what = m.Actual + ", expected " + article(strings.TrimPrefix(m.Check, "type "))
	case m.Expected == "":
		what = m.Actual + ", expected " + article(m.Check)
	default:
		what = m.Actual + ", expected " + m.Check + " " + m.Expected
	}
	title := field + ": " + what
	if isUndocumentedCode(*m) {
		title += " " + undocumentedCode
	}
	if m.Requirement != "" {
		title += " (" + m.Requirement + ")"
	}
	return title
}

// article puts "a" or "an" before a rule's noun: "a number", "an integer".
func article(noun string) string {
	if noun == "" {
		return noun
	}
	switch noun[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + noun
	}
	if strings.HasPrefix(noun, "not ") || strings.HasPrefix(noun, "null") || noun == "empty" || noun == "JSON" {
		return noun
	}
	return "a " + noun
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
			out = append(out, newFinding(k, *f))
		}
		if k.mismatch != nil && k.mismatch.Actual != "" {
			out[i].Values = appendOnce(out[i].Values, valuePair(*k.mismatch))
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
		if len(out[i].Values) > maxValues {
			out[i].Values = append(out[i].Values[:maxValues], fmt.Sprintf("… %d more", len(out[i].Values)-maxValues))
		}
	}
	block(c, out)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return len(out[i].Requirements) > len(out[j].Requirements)
	})
	return out
}

// maxValues bounds the distinct wrong values a finding lists.
const maxValues = 20

// newFinding starts a finding from the first failure that belongs to it.
func newFinding(k specFinding, example Failure) Finding {
	f := Finding{ID: k.id, Title: k.title, Site: k.site, Message: k.shape, Specs: []string{}, Requirements: []string{}, Example: example}
	if m := k.mismatch; m != nil {
		f.Field, f.Check, f.Expected, f.Actual, f.Root = m.Field, m.Check, m.Expected, m.Actual, m.Requirement
	}
	return f
}

// valuePair is a wrong value with the one expected: `"bad_request" for "BAD_REQUEST"`.
func valuePair(m harness.Mismatch) string {
	if m.Expected == "" {
		return m.Actual
	}
	return m.Actual + " for " + m.Expected
}

// block marks the requirements blocked by another's finding: a failed requirement each of
// whose failures belongs to a finding rooted in another requirement that failed too (a server
// that drops msg from success replies fails every spec at the envelope, CONV-05, before any
// operation's own rule is checked). One root cause then gives one failed requirement, and the
// others say what blocks them.
func block(c *Conformance, findings []Finding) {
	root := map[string]string{}
	for _, f := range findings {
		root[f.ID] = f.Root
	}
	failed := map[string]bool{}
	for _, r := range c.Requirements {
		failed[r.ID] = r.Status == Failed
	}
	index := map[string]int{}
	for i, f := range findings {
		index[f.ID] = i
	}
	for ri := range c.Requirements {
		r := &c.Requirements[ri]
		if r.Status != Failed || len(r.Failures) == 0 {
			continue
		}
		var by, ids []string
		for _, f := range r.Failures {
			rt := root[f.Finding]
			if rt == "" || rt == r.ID || !failed[rt] {
				by = nil
				break
			}
			by = appendOnce(by, rt)
			ids = appendOnce(ids, f.Finding)
		}
		if len(by) == 0 {
			continue
		}
		r.Status, r.BlockedBy = Blocked, by
		r.Reason = fmt.Sprintf("blocked by %s: its %s failed only by finding %s of %s", strings.Join(by, ", "),
			plural(len(r.Failures), "spec"), strings.Join(ids, ", "), strings.Join(by, ", "))
		c.Counts.Failed--
		c.Counts.Blocked++
		for _, id := range ids {
			findings[index[id]].Blocks = append(findings[index[id]].Blocks, r.ID)
		}
	}
}

// specFinding is a failed spec's finding, by spec.
type specFinding struct {
	id, site, shape, title string
	// mismatch is what the failed assertion found, nil when it did not say.
	mismatch *harness.Mismatch
}

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
