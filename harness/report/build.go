package report

import (
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// Build makes the conformance report of a run: one entry per catalog
// requirement, in catalog order, whose status aggregates the specs naming
// it — failed if any failed; passed when every spec that applies ran and
// passed; partial when some passed and others that apply did not run
// (filtered out, a capability missing), naming those; not-applicable when
// every spec was skipped as not applicable; skipped otherwise (no spec ran,
// or none was written); pending when the catalog marks it pending. The target may be nil when the
// suite's setup failed; the report then shows that failure. The failures are bounded
// (DefaultLimits) unless the target's configuration records exchanges.
func Build(cat *catalog.Catalog, r types.Report, t *harness.Target) *Conformance {
	c := &Conformance{
		APIVersion:  Version,
		Kind:        Kind,
		GeneratedAt: time.Now().UTC(),
		Suite: Suite{
			Description:    r.SuiteDescription,
			Succeeded:      r.SuiteSucceeded,
			StartTime:      r.StartTime,
			EndTime:        r.EndTime,
			RunTime:        r.RunTime.Round(time.Millisecond).String(),
			HarnessVersion: harness.Version,
			CatalogVersion: catalog.Version(),
			FailureReasons: r.SpecialSuiteFailureReasons,
		},
		Target: TargetFrom(t),
	}

	byReq := map[string][]types.SpecReport{}
	for _, s := range r.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			// Suite nodes (BeforeSuite, …) have no requirement; their
			// failure explains every skipped spec, so it must be shown.
			if s.Failed() {
				c.OtherFailures = append(c.OtherFailures, failureOf(s))
			}
			continue
		}
		countSpec(&c.Counts.Specs, s)
		known := false
		for _, id := range harness.ReqIDs(s.Labels()) {
			if cat.Has(id) {
				byReq[id] = append(byReq[id], s)
				known = true
			}
		}
		if !known && s.Failed() {
			c.OtherFailures = append(c.OtherFailures, failureOf(s))
		}
	}

	for _, req := range cat.Requirements {
		out := aggregate(req, byReq[req.ID])
		c.Requirements = append(c.Requirements, out)
		countRequirement(&c.Counts, out)
	}
	c.Findings = findingsOf(c, findingKeys(r))
	c.Profiles = profiles(c.Requirements)
	// A run that records exchanges asked for everything; any other keeps its report small.
	if t == nil || !t.Config.RecordExchanges {
		c.Bound(DefaultLimits)
	}
	if t != nil && t.Config.InsecureSkipVerify {
		c.Warnings = append(c.Warnings, harness.InsecureWarning)
	}
	return c
}

// aggregate decides one requirement's status from its specs.
func aggregate(req catalog.Requirement, specs []types.SpecReport) Requirement {
	out := Requirement{
		ID: req.ID, Section: req.Section, Text: req.Text, Feature: req.Feature,
		MinLevel: req.MinLevel, BelowLevel: req.BelowLevel, Specs: []string{},
	}
	var passed, failed, skipped int
	var skipReasons []string
	for _, s := range specs {
		out.Specs = append(out.Specs, s.FullText())
		kind, reason := classify(s)
		if kind != Passed && kind != Failed {
			if remedy := remedyOf(reason); remedy != "" {
				out.RunWith = appendOnce(out.RunWith, remedy)
			}
		}
		switch kind {
		case Passed:
			passed++
		case Failed:
			failed++
			out.Failures = append(out.Failures, failureOf(s))
		case NotApplicable:
			skipReasons = appendOnce(skipReasons, reason)
		default:
			skipped++
			skipReasons = appendOnce(skipReasons, reason)
			out.NotRun = append(out.NotRun, s.FullText())
		}
	}

	switch {
	case req.Pending != "":
		out.Status = Pending
		out.Reason = "spec not written yet (" + req.Pending + ")"
	case len(specs) == 0:
		out.Status = Skipped
		out.Reason = "no spec of this run names the requirement"
	case failed > 0:
		out.Status = Failed
		out.Reason = fmt.Sprintf("%d of %d specs failed", failed, len(specs))
	case passed > 0 && skipped > 0:
		// Passed on what ran only: a partial check is never read as a full one.
		out.Status = Partial
		out.Reason = fmt.Sprintf("%d of %d specs not run: %s", skipped, len(specs), strings.Join(skipReasons, "; "))
	case passed > 0:
		out.Status = Passed
		// Specs that do not apply to this target (feature, level) take nothing from a pass.
		if rest := len(specs) - passed; rest > 0 {
			out.Reason = fmt.Sprintf("%d of %d specs not applicable: %s", rest, len(specs), strings.Join(skipReasons, "; "))
		}
	case skipped == 0:
		out.Status = NotApplicable
		out.Reason = strings.Join(skipReasons, "; ")
	default:
		// Some spec was skipped for a reason other than "not applicable":
		// the requirement applies but was not checked.
		out.Status = Skipped
		out.Reason = strings.Join(skipReasons, "; ")
	}
	return out
}

// classify maps a spec's state to a requirement status, with the reason of
// a skip.
func classify(s types.SpecReport) (Status, string) {
	switch {
	case s.State == types.SpecStatePassed:
		return Passed, ""
	case s.State.Is(types.SpecStateFailureStates):
		return Failed, ""
	case s.State == types.SpecStatePending:
		return Skipped, "spec is marked pending"
	}
	msg := strings.TrimSpace(s.Failure.Message)
	switch {
	case strings.HasPrefix(msg, harness.NotApplicablePrefix):
		return NotApplicable, msg
	case msg == "":
		return Skipped, "not run (filtered out, or the suite stopped early)"
	}
	return Skipped, msg
}

// failureOf extracts what a reader needs to understand a failure.
func failureOf(s types.SpecReport) Failure {
	f := Failure{
		Spec:      specName(s),
		State:     s.State.String(),
		Message:   TrimBuildPaths(harness.RedactText(s.Failure.Message)),
		Output:    TrimBuildPaths(harness.RedactText(s.CapturedGinkgoWriterOutput)),
		Exchanges: harness.ExchangesOf(s.ReportEntries),
	}
	if s.Failure.ForwardedPanic != "" {
		f.Message = strings.TrimSpace(f.Message + "\npanic: " + TrimBuildPaths(harness.RedactText(s.Failure.ForwardedPanic)))
	}
	if s.Failure.Location.FileName != "" {
		f.Location = repoPath(s.Failure.Location.FileName) + ":" + fmt.Sprint(s.Failure.Location.LineNumber)
	}
	f.Site = assertionSite(s.Failure.Location)
	m := failingExchange(s, f.Exchanges)
	f.FailingRequest, f.FailingExchange, f.FailingBy, f.failingAt = m.text, m.index, m.by, m.at
	// The mark says which exchange it was; the messages noted on the exchanges would only
	// repeat the failure's.
	f.Exchanges = withoutNotes(f.Exchanges)
	for _, e := range s.ReportEntries {
		if e.Name != harness.ExchangesEntry {
			f.Notes = append(f.Notes, TrimBuildPaths(harness.RedactText(e.Name+": "+e.StringRepresentation())))
		}
	}
	return f
}

// How the exchange a failure was about was found (Failure.FailingBy).
const (
	// ByAssertion: the failing httpexpect assertion named the exchange whose response it
	// checked.
	ByAssertion = "assertion"
	// ByOrder: the assertion named none (a Gomega assertion on a value taken out of a reply),
	// so the mark is the last request the spec sent before it failed.
	ByOrder = "order"
)

// failingMark is the exchange a failure was about.
type failingMark struct {
	// text is its request and response as the spec's output shows them, credentials redacted.
	text string
	// at is where text starts in the spec's redacted output; nil when it is not there.
	at *int
	// index is its index among the structured exchanges; nil when not known.
	index *int
	by    string
}

// failingExchange finds the exchange the failing assertion was about. An httpexpect assertion
// notes its failure on the exchange whose response it checked (harness.Exchange's
// FailedAssertions): the one whose note is the spec's failure message is it, whatever the spec
// sent after it. Otherwise it is the last request the spec sent before it failed: Ginkgo
// records where in the spec's output the failure came, so the cleanup's requests after it
// (deleting what the spec made) are never taken for it.
func failingExchange(s types.SpecReport, exchanges []harness.Exchange) failingMark {
	out, at := s.CapturedGinkgoWriterOutput, s.Failure.TimelineLocation.Offset
	placed := at > 0 && at <= len(out)
	if !placed {
		at = len(out)
	}
	// The search runs in the redacted output, which is what the reports show.
	before := harness.RedactText(out[:at])
	if i := assertedExchange(s.Failure.Message, exchanges); i >= 0 {
		m := failingMark{index: &i, by: ByAssertion}
		if start, ok := printedAt(before, exchanges, i, s.Failure.TimelineLocation.Time); ok {
			m.at, m.text = &start, printedBlock(before, start)
		} else {
			m.text = exchangeText(exchanges[i])
		}
		return m
	}
	m := failingMark{by: ByOrder}
	if placed {
		if i := strings.LastIndex(before, request); i >= 0 {
			m.at, m.text = &i, strings.TrimSpace(before[i:])
		}
	}
	when := s.Failure.TimelineLocation.Time
	for i, e := range exchanges {
		if !when.IsZero() && !e.Start.IsZero() && !e.Start.After(when) {
			m.index = &i
		}
	}
	if m.text == "" && m.index == nil {
		m.by = ""
	}
	return m
}

// request opens a request in a spec's output, as the harness's printer writes it.
const request = "--> "

// assertedExchange is the index of the last exchange an httpexpect assertion failed on with
// msg, -1 for none.
func assertedExchange(msg string, exchanges []harness.Exchange) int {
	if strings.TrimSpace(msg) == "" {
		return -1
	}
	redacted := harness.RedactText(msg)
	for i := len(exchanges) - 1; i >= 0; i-- {
		if slices.Contains(exchanges[i].FailedAssertions, msg) || slices.Contains(exchanges[i].FailedAssertions, redacted) {
			return i
		}
	}
	return -1
}

// printedAt finds where the spec's output (up to the failure) shows exchanges[i]: the request
// line of the same method and URL that as many such lines follow as exchanges of the same
// method and URL followed it before the failure. A rate-limited attempt the harness retried is
// printed with its retry once, and is not counted.
func printedAt(before string, exchanges []harness.Exchange, i int, when time.Time) (int, bool) {
	line := request + exchanges[i].Method + " " + exchanges[i].URL + "\n"
	later := 0
	for j := i + 1; j < len(exchanges); j++ {
		e := exchanges[j]
		if e.Method+" "+e.URL != exchanges[i].Method+" "+exchanges[i].URL || retried(exchanges, j) ||
			(!when.IsZero() && !e.Start.IsZero() && e.Start.After(when)) {
			continue
		}
		later++
	}
	end := len(before)
	for {
		k := strings.LastIndex(before[:end], line)
		if k < 0 {
			return 0, false
		}
		if k == 0 || before[k-1] == '\n' {
			if later == 0 {
				return k, true
			}
			later--
		}
		end = k
	}
}

// retried reports whether exchanges[j] is an attempt the harness's transport retried because
// it was rate limited: the same request follows it.
func retried(exchanges []harness.Exchange, j int) bool {
	e := exchanges[j]
	if j+1 >= len(exchanges) || exchanges[j+1].Method != e.Method || exchanges[j+1].URL != e.URL {
		return false
	}
	return e.Status == http.StatusTooManyRequests || (e.Status >= 400 && strings.Contains(e.ResponseBody, "RATE_LIMIT_HIT"))
}

// printedBlock is the exchange printed at start in out: its request and what follows up to the
// next request.
func printedBlock(out string, start int) string {
	block := out[start:]
	if k := strings.Index(block[len(request):], "\n"+request); k >= 0 {
		block = block[:len(request)+k]
	}
	return strings.TrimSpace(block)
}

// exchangeText is a structured exchange as text, for one the output does not show.
func exchangeText(e harness.Exchange) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s %s\n", request, e.Method, e.URL)
	if e.RequestBody != "" {
		fmt.Fprintf(&b, "    %s\n", e.RequestBody)
	}
	if e.Error != "" {
		fmt.Fprintf(&b, "<-- error: %s\n", e.Error)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, "<-- %d %s (%dms)\n", e.Status, http.StatusText(e.Status), e.DurationMS)
	}
	if e.ResponseBody != "" {
		fmt.Fprintf(&b, "    %s\n", strings.ReplaceAll(e.ResponseBody, "\n", "\n    "))
	}
	return strings.TrimSpace(b.String())
}

// withoutNotes is a copy of exchanges without the failures noted on them.
func withoutNotes(exchanges []harness.Exchange) []harness.Exchange {
	if !slices.ContainsFunc(exchanges, func(e harness.Exchange) bool { return len(e.FailedAssertions) > 0 }) {
		return exchanges
	}
	out := slices.Clone(exchanges)
	for i := range out {
		out[i].FailedAssertions = nil
	}
	return out
}

func countSpec(c *SpecCounts, s types.SpecReport) {
	c.Total++
	switch {
	case s.State == types.SpecStatePassed:
		c.Passed++
	case s.State.Is(types.SpecStateFailureStates):
		c.Failed++
	case s.State == types.SpecStatePending:
		c.Pending++
	default:
		c.Skipped++
	}
}

func countRequirement(c *Counts, r Requirement) {
	c.Requirements++
	if len(r.Specs) > 0 {
		c.Covered++
	}
	switch r.Status {
	case Passed:
		c.Passed++
	case Partial:
		c.Partial++
	case Failed:
		c.Failed++
	case Blocked:
		c.Blocked++
	case Skipped:
		c.Skipped++
	case NotApplicable:
		c.NotApplicable++
	case Pending:
		c.Pending++
	}
}

// setting is a runner setting named in a skip reason: "-chatconform.owner-permissions" under
// go test, "--owner-permissions" under the runner binary; its name is the submatch.
var setting = regexp.MustCompile(`(?:-` + regexp.QuoteMeta(harness.FlagPrefix) + `|--)([a-z][a-z-]*)`)

// feature is the feature a not-applicable skip says the target does not claim.
var feature = regexp.MustCompile(`does not claim feature ([a-z_]+)`)

// remedyOf says what would run a spec skipped for reason, or "" when nothing a user sets
// would (a feature level, a filter): the setting the reason names, the feature to claim, the
// reference fake for a capability of its control API. Flags are spelled as this program takes
// them (harness.SettingFlag).
func remedyOf(reason string) string {
	for _, m := range setting.FindAllStringSubmatch(reason, -1) {
		if slices.ContainsFunc(harness.Settings, func(s harness.Setting) bool { return s.Flag != "" && s.Name == m[1] }) {
			return "set `" + harness.SettingFlag(m[1]) + "`"
		}
	}
	if m := feature.FindStringSubmatch(reason); m != nil {
		return "claim feature " + m[1] + " (`" + harness.SettingFlag("features") + "`)"
	}
	if caps, ok := strings.CutPrefix(reason, harness.NeedsCapabilityPrefix+" "); ok {
		// Capabilities are the reference fake's control API: no other server offers them.
		return "run against the reference fake, whose control API offers " + caps + " (`" + harness.SettingFlag("capabilities") + "` lists what a target offers)"
	}
	return ""
}

// repoRoot is the repository's directory where this runner was built ("" under -trimpath).
var repoRoot = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return strings.TrimSuffix(filepath.ToSlash(file), "harness/report/build.go")
}()

// repoPath is a source file's path in the repository, "specs/topics.go": the reports never
// carry the directory the runner was built in.
func repoPath(file string) string {
	file = filepath.ToSlash(file)
	if repoRoot != "" && strings.HasPrefix(file, repoRoot) {
		return strings.TrimPrefix(file, repoRoot)
	}
	if _, rest, ok := strings.Cut(file, modulePath+"/"); ok {
		return rest
	}
	return file
}

// TrimBuildPaths takes the directory the runner was built in out of text: Ginkgo names source
// files by the path they were compiled from in its failure messages, timelines and console
// header ("In [It] at: /home/ci/chatconform/specs/topics.go:12", "Running Suite: … -
// /home/ci/chatconform/specs"), and the reports and the console give repository paths
// ("specs/topics.go:12") instead.
func TrimBuildPaths(text string) string {
	if repoRoot == "" {
		return text
	}
	return strings.ReplaceAll(text, repoRoot, "")
}

// modulePath is the module's import path, which -trimpath builds put before a file's path.
const modulePath = "github.com/chatconform/chatconform"
