package report

import (
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"io"
	"sort"
	"strings"
)

// statusOrder puts what needs attention first: failures, then what was not
// checked, then what does not apply, then pending, then passes.
var statusOrder = map[Status]int{Failed: 0, Blocked: 1, Partial: 2, Skipped: 3, NotApplicable: 4, Pending: 5, Passed: 6}

// renderHTML writes the report page.
func renderHTML(w io.Writer, c *Conformance) error {
	cfg, err := json.MarshalIndent(c.Target.Config, "", "  ")
	if err != nil {
		return err
	}
	var parts []htmlPart
	index := map[string]int{}
	failures := []htmlFailure{}
	failureOf := map[string]string{} // spec -> anchor
	for _, r := range c.Requirements {
		name, _, _ := strings.Cut(r.Section, " / ")
		i, ok := index[name]
		if !ok {
			i = len(parts)
			index[name] = i
			parts = append(parts, htmlPart{Name: name})
		}
		row := htmlRequirement{Requirement: r, Part: name, Operation: operationOf(r.ID)}
		for _, f := range r.Failures {
			anchor, seen := failureOf[f.Spec]
			if !seen {
				anchor = fmt.Sprintf("failure-%d", len(failures)+1)
				failureOf[f.Spec] = anchor
				failures = append(failures, htmlFailure{Failure: f, Anchor: anchor, Exchange: markFailing(f.Output, f.FailingRequest, f.failingAt)})
			}
			row.FailureLinks = append(row.FailureLinks, htmlLink{Anchor: anchor, Spec: f.Spec})
		}
		parts[i].Requirements = append(parts[i].Requirements, row)
	}
	for _, p := range parts {
		sort.SliceStable(p.Requirements, func(i, j int) bool {
			return statusOrder[p.Requirements[i].Status] < statusOrder[p.Requirements[j].Status]
		})
	}
	others := othersOf(c.OtherFailures)
	for _, f := range others {
		failureOf[f.Spec] = f.Anchor
	}
	return page.Execute(w, struct {
		*Conformance
		Parts        []htmlPart
		Failures     []htmlFailure
		Others       []htmlFailure
		FindingsHTML []htmlFinding
		Remedies     []Remedy
		Config       string
		Statuses     []Status
	}{c, parts, failures, others, findingsOfHTML(c.Findings, failureOf), remedies(c), string(cfg), []Status{Failed, Blocked, Partial, Skipped, NotApplicable, Pending, Passed}})
}

// htmlPart is a part of the document (Endpoints, Errors, …) and its requirements.
type htmlPart struct {
	Name         string
	Requirements []htmlRequirement
}

type htmlRequirement struct {
	Requirement
	Part, Operation string
	FailureLinks    []htmlLink
}

type htmlLink struct{ Anchor, Spec string }

// htmlFailure is one failed spec, shown once however many requirements it names.
type htmlFailure struct {
	Failure
	Anchor   string
	Exchange template.HTML
}

func othersOf(fs []Failure) []htmlFailure {
	out := make([]htmlFailure, 0, len(fs))
	for i, f := range fs {
		out = append(out, htmlFailure{Failure: f, Anchor: fmt.Sprintf("other-%d", i+1), Exchange: markFailing(f.Output, f.FailingRequest, f.failingAt)})
	}
	return out
}

// operationOf is "6" for OP06-…, "" for the other areas: the filter's value, which the page's
// address takes as #op=6.
func operationOf(id string) string {
	var n int
	if _, err := fmt.Sscanf(id, "OP%d-", &n); err == nil && n > 0 {
		return fmt.Sprint(n)
	}
	return ""
}

// markFailing escapes a spec's captured exchanges and marks the one the failing assertion was
// about (failing, where the output has it at at), never simply the last: the spec's cleanup
// comes after it, and the assertion may be about an earlier exchange than the last before it.
func markFailing(output, failing string, at *int) template.HTML {
	i := -1
	switch {
	case failing == "":
	case at != nil && *at >= 0 && strings.HasPrefix(output[min(*at, len(output)):], failing):
		i = *at
	default:
		i = strings.LastIndex(output, failing)
	}
	if i < 0 {
		return template.HTML(html.EscapeString(output))
	}
	end := i + len(failing)
	return template.HTML(html.EscapeString(output[:i]) + `<mark class="failing" title="the request the failed assertion was about">` +
		html.EscapeString(output[i:end]) + `</mark>` + html.EscapeString(output[end:]))
}

// htmlFinding is a finding with the anchors of its failures.
type htmlFinding struct {
	Finding
	Anchor        string
	ExampleAnchor string // the example failure's anchor
	Links         []htmlLink
}

// findingsOfHTML pairs the findings with the failures' anchors.
func findingsOfHTML(fs []Finding, anchors map[string]string) []htmlFinding {
	out := make([]htmlFinding, 0, len(fs))
	for _, f := range fs {
		h := htmlFinding{Finding: f, Anchor: "finding-" + f.ID, ExampleAnchor: anchors[f.Example.Spec]}
		for _, spec := range f.Specs {
			h.Links = append(h.Links, htmlLink{Anchor: anchors[spec], Spec: spec})
		}
		out = append(out, h)
	}
	return out
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{"clock": ClockOffset}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>chatconform report: {{.Target.URL}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
.counts td{font-size:1.2em}
.status{font-weight:600;white-space:nowrap}
.failed{color:#b00020}.blocked{color:#8c2f5b}.passed,.success{color:#1b7f3b}.failure{color:#b00020}.partial{color:#8a6d00}.skipped{color:#a15c00}.not-applicable{color:#555}.pending{color:#3b5bdb}
mark.failing{background:#ffe3e3;outline:2px solid #b00020;display:block}
pre{background:#f6f6f6;padding:.6em;overflow:auto;max-height:30em;font-size:12px;white-space:pre-wrap}
details{margin:.3em 0}summary{cursor:pointer}
.small{color:#666;font-size:12px}
.bounded{background:#fff4e0;padding:.4em .6em}
</style>
</head>
<body>
<h1>chatconform {{if .Exploration}}explore{{else}}conformance{{end}} report</h1>
{{with .Target.Config.Implementation}}{{if .Name}}<p>Implementation <b>{{.Name}}</b>{{if .Version}} {{.Version}}{{end}}{{if .URL}} · {{.URL}}{{end}}{{if .Contact}} · contact {{.Contact}}{{end}}</p>{{end}}{{end}}
<p>Target <b>{{.Target.URL}}</b>, feature level {{.Target.FeatureLevel}}{{if .Target.ServerVersion}}, server {{.Target.ServerVersion}}{{end}}, {{with clock .Target.Realm.ClockOffsetSeconds}}clock {{.}}{{else}}clock in step with the runner's{{end}}.
Features: {{range .Target.Features}}{{.}} {{else}}none{{end}}.
Capabilities ({{.Target.CapabilitySource}}): {{range .Target.Capabilities}}{{.}} {{else}}none{{end}}.</p>
{{with .Exploration}}<p class="exploration">Exploration: {{.Sequences}} sequence(s), {{.Steps}} steps (at most {{.StepsPerSequence}} a sequence) from seed {{.Seed}} in {{printf "%.0f" .Seconds}} s:
{{if .Findings}}<b class="failed">{{.Findings}} difference(s) from the reference</b>, each a failed requirement below with its minimal sequence and its replay{{else}}<b class="passed">no difference from the reference</b>{{end}}.
Each requirement listed had fields compared{{if not .Unreached}}; every requirement of the field table was reached{{end}}.</p>
{{with .Unreached}}<details class="small"><summary>{{len .}} requirement(s) of the field table not reached (none of their fields compared)</summary><p class="unreached">{{range .}}{{.}} {{end}}</p></details>{{end}}
{{with .Gaps}}<p class="small">Fields without a row in the field table (not compared): {{range $i, $g := .}}{{if $i}}; {{end}}{{$g}}{{end}}.</p>{{end}}{{end}}
<p class="small">{{.APIVersion}} · generated {{.GeneratedAt.Format "2006-01-02 15:04:05 UTC"}} · run time {{.Suite.RunTime}} · harness {{.Suite.HarnessVersion}} · catalog {{.Suite.CatalogVersion}}{{if .Target.Realm.Defaulted}} · defaulted realm values: {{range .Target.Realm.Defaulted}}{{.}} {{end}}{{end}}</p>

<table class="counts">
<tr><th>Requirements</th><th class="passed">Passed</th><th class="partial">Partial</th><th class="failed">Failed</th><th class="blocked" title="failed only by another requirement's finding">Blocked</th><th class="skipped">Skipped</th><th class="not-applicable">Not applicable</th><th class="pending">Pending</th><th>Covered</th></tr>
<tr><td>{{.Counts.Requirements}}</td><td>{{.Counts.Passed}}</td><td>{{.Counts.Partial}}</td><td>{{.Counts.Failed}}</td><td>{{.Counts.Blocked}}</td><td>{{.Counts.Skipped}}</td><td>{{.Counts.NotApplicable}}</td><td>{{.Counts.Pending}}</td><td>{{.Counts.Covered}}</td></tr>
</table>
<p class="small">Specs: {{.Counts.Specs.Total}} ({{.Counts.Specs.Passed}} passed, {{.Counts.Specs.Failed}} failed, {{.Counts.Specs.Skipped}} skipped, {{.Counts.Specs.Pending}} pending).</p>

{{range .Warnings}}<p class="failed"><b>{{.}}</b></p>{{end}}
{{with .Bounded}}<p class="bounded" id="bounded"><b>Bounded report:</b> {{.Failures}} failure(s) lost {{.Bytes}} bytes of output, exchanges and messages to keep the report small; each says what it lost and why. Every failure is still listed and named. To have everything, {{.Full}}.</p>{{end}}
{{if .FindingsHTML}}
<h2 class="failed" id="findings">Findings (distinct failures): {{len .FindingsHTML}}</h2>
<p class="small">Each finding is one check failing the same way, in however many specs; fixing it may pass the requirements it fails alone. A requirement it blocks failed only by it, at a check of another requirement (its root), before its own rules were reached.</p>
<table class="findings">
<tr><th>Finding</th><th>Specs</th><th>Requirements failed</th><th>Failure</th></tr>
{{range .FindingsHTML}}<tr class="finding" id="{{.Anchor}}">
<td><a href="#{{.Anchor}}">{{.ID}}</a></td>
<td>{{.Count}}</td>
<td>{{len .Requirements}}{{if .Sole}} ({{len .Sole}} by this alone){{end}}{{if .Blocks}}<div class="blocked small">{{len .Blocks}} of them blocked by it ({{.Root}})</div>{{end}}</td>
<td><b class="finding-title">{{.Title}}</b>{{with .Values}}<div class="small">seen: {{range $i, $v := .}}{{if $i}}; {{end}}{{$v}}{{end}}</div>{{end}}{{if .Site}}<div class="small">at {{.Site}}</div>{{end}}<details><summary class="small">the failure message</summary><pre>{{.Message}}</pre></details>
<div class="small">for example: <a class="example" href="#{{.ExampleAnchor}}">{{.Example.Spec}}</a></div>
<details><summary class="small">{{.Count}} spec(s), {{len .Requirements}} requirement(s)</summary><ul class="small">{{range .Links}}<li><a href="#{{.Anchor}}">{{.Spec}}</a></li>{{end}}</ul>
<p class="small">{{range .Requirements}}<a href="#{{.}}">{{.}}</a> {{end}}</p></details></td>
</tr>
{{end}}</table>
{{end}}
{{with .Remedies}}<h2>To run more</h2><p class="small">What the reasons of the specs that did not run name:</p><ul>{{range .}}<li>{{.Text}} to run {{.Count}} requirement(s)</li>{{end}}</ul>{{end}}
<h2>Profiles</h2>
<table>
<tr><th>Profile</th><th>Result</th><th class="passed">Passed</th><th class="partial">Partial</th><th class="failed">Failed</th><th class="blocked">Blocked</th><th class="skipped">Skipped</th><th class="not-applicable">Not applicable</th></tr>
{{range .Profiles}}<tr><td>{{.Name}}<div class="small">{{range .Features}}{{.}} {{end}}</div></td><td class="status {{.Result}}">{{.Result}}</td><td>{{.Count "passed"}}</td><td>{{.Count "partial"}}</td><td>{{.Count "failed"}}</td><td>{{.Count "blocked"}}</td><td>{{.Count "skipped"}}</td><td>{{.Count "not-applicable"}}</td></tr>
{{end}}</table>

{{if .Others}}
<h2 class="failed">Failures outside any requirement</h2>
{{range .Others}}{{template "failure" .}}{{end}}
{{end}}

<h2>Requirements</h2>
<form id="filters" class="small" onsubmit="return false">
Status <select id="f-status"><option value="">any</option>{{range .Statuses}}<option>{{.}}</option>{{end}}</select>
Part <select id="f-part"><option value="">any</option>{{range .Parts}}<option>{{.Name}}</option>{{end}}</select>
Feature <select id="f-feature"><option value="">any</option></select>
Operation <select id="f-op"><option value="">any</option></select>
Search <input id="f-q" type="search" placeholder="ID or words">
<span id="f-count"></span>
</form>
{{range .Parts}}
<section class="part" data-part="{{.Name}}">
<h3>{{.Name}}</h3>
<table>
<tr><th>ID</th><th>Status</th><th>Requirement</th></tr>
{{range .Requirements}}
<tr id="{{.ID}}" class="req" data-status="{{.Status}}" data-part="{{.Part}}" data-feature="{{.Feature}}" data-op="{{.Operation}}">
<td><a href="#{{.ID}}">{{.ID}}</a></td>
<td class="status {{.Status}}">{{.Status}}</td>
<td>{{.Text}}<div class="small">{{.Section}}{{if .Feature}} · {{.Feature}}{{end}}{{if .MinLevel}} · level ≥ {{.MinLevel}}{{end}}{{if .BelowLevel}} · level &lt; {{.BelowLevel}}{{end}}</div>
{{if .Reason}}<div class="small">{{.Reason}}</div>{{end}}
{{if .BlockedBy}}<div class="blocked small">blocked by {{range .BlockedBy}}<a href="#{{.}}">{{.}}</a> {{end}}</div>{{end}}
{{if .NotRun}}<div class="small">Not run:<ul>{{range .NotRun}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
{{if .Specs}}<details><summary class="small">{{len .Specs}} spec(s)</summary><ul class="small">{{range .Specs}}<li>{{.}}</li>{{end}}</ul></details>{{end}}
{{range .FailureLinks}}<div class="failed small">failed: <a href="#{{.Anchor}}">{{.Spec}}</a></div>{{end}}
</td>
</tr>
{{end}}
</table>
</section>
{{end}}

{{if .Failures}}
<h2 class="failed">Failures</h2>
{{range .Failures}}{{template "failure" .}}{{end}}
{{end}}

<h2>Configuration (redacted)</h2>
<pre>{{.Config}}</pre>
<script>
// Filters: every row carries its status, part, feature and operation; the choice lives in the
// URL's fragment (#status=failed&q=topic), so a filtered view can be shared and reloaded.
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.req"));
  var fields = {status: "f-status", part: "f-part", feature: "f-feature", op: "f-op", q: "f-q"};
  function fill(id, attr, label) {
    var sel = document.getElementById(id), seen = {};
    rows.forEach(function (r) {
      var v = r.dataset[attr];
      if (v && !seen[v]) { seen[v] = true; var o = document.createElement("option"); o.value = v; o.textContent = label + v; sel.appendChild(o); }
    });
  }
  fill("f-feature", "feature", "");
  fill("f-op", "op", "operation ");
  function apply() {
    var want = {}, hash = [];
    Object.keys(fields).forEach(function (k) {
      want[k] = document.getElementById(fields[k]).value.toLowerCase();
      if (want[k]) { hash.push(k + "=" + encodeURIComponent(want[k])); }
    });
    var shown = 0;
    rows.forEach(function (r) {
      var ok = (!want.status || r.dataset.status === want.status) && (!want.part || r.dataset.part.toLowerCase() === want.part) &&
        (!want.feature || r.dataset.feature === want.feature) && (!want.op || r.dataset.op === want.op) &&
        (!want.q || r.textContent.toLowerCase().indexOf(want.q) >= 0);
      r.hidden = !ok;
      if (ok) { shown++; }
    });
    document.querySelectorAll("section.part").forEach(function (s) { s.hidden = !s.querySelector("tr.req:not([hidden])"); });
    document.getElementById("f-count").textContent = shown + " of " + rows.length + " shown";
    if (hash.length || location.hash.indexOf("=") >= 0) { history.replaceState(null, "", hash.length ? "#" + hash.join("&") : location.pathname); }
  }
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    var p = kv.split("="), id = fields[p[0]];
    if (id && p.length === 2) {
      var el = document.getElementById(id), v = decodeURIComponent(p[1]).toLowerCase().replace(/^operation /, "");
      if (el.tagName === "SELECT") {
        Array.prototype.forEach.call(el.options, function (o) { if (o.value.toLowerCase() === v || o.textContent.toLowerCase() === v) { el.value = o.value; } });
      } else { el.value = v; }
    }
  });
  Object.keys(fields).forEach(function (k) { document.getElementById(fields[k]).addEventListener("input", apply); });
  apply();
})();
</script>
</body>
</html>
{{define "failure"}}<div class="failure" id="{{.Anchor}}">
<p><b>{{.Spec}}</b> <span class="failed">{{.State}}</span>{{if .Location}} <span class="small">at {{.Location}}</span>{{end}}{{if .Finding}} <span class="small">· <a href="#finding-{{.Finding}}">finding {{.Finding}}</a></span>{{end}}</p>
{{if .FailingRequest}}<div class="small">{{if eq .FailingBy "assertion"}}The request the failed assertion was about (the assertion checked its response):{{else}}The last request before the failure (the failed assertion does not say which reply it checked):{{end}}</div>
<pre class="failing-request" id="{{.Anchor}}-request"><mark class="failing">{{.FailingRequest}}</mark></pre>{{end}}
<pre>{{.Message}}</pre>
{{if .Notes}}<ul class="small">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Omitted}}<p class="small omitted">Left out here ({{.Why}}):{{if .Output}} {{.Output}} bytes of output;{{end}}{{if .Exchanges}} {{.Exchanges}} exchange(s);{{end}}{{if .ExchangeBytes}} {{.ExchangeBytes}} bytes of exchanges;{{end}}{{if .Message}} {{.Message}} bytes of the message;{{end}}{{if .FailingRequest}} {{.FailingRequest}} bytes of the failing request;{{end}}{{if .Notes}} {{.Notes}} note(s);{{end}} see <a href="#bounded">above</a> for the full report.</p>{{end}}
{{if .Exchange}}<details><summary class="small">Every HTTP exchange of the spec, in order (the failing one marked)</summary><pre>{{.Exchange}}</pre></details>{{end}}
</div>{{end}}
`))
