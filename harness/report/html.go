package report

import (
	"encoding/json"
	"html/template"
	"io"
	"sort"
)

// statusOrder puts what needs attention first: failures, then what was not
// checked, then what does not apply, then pending, then passes.
var statusOrder = map[Status]int{Failed: 0, Partial: 1, Skipped: 2, NotApplicable: 3, Pending: 4, Passed: 5}

// renderHTML writes the report page.
func renderHTML(w io.Writer, c *Conformance) error {
	reqs := append([]Requirement(nil), c.Requirements...)
	sort.SliceStable(reqs, func(i, j int) bool { return statusOrder[reqs[i].Status] < statusOrder[reqs[j].Status] })
	cfg, err := json.MarshalIndent(c.Target.Config, "", "  ")
	if err != nil {
		return err
	}
	return page.Execute(w, struct {
		*Conformance
		Sorted []Requirement
		Config string
	}{c, reqs, string(cfg)})
}

var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
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
.failed{color:#b00020}.passed,.success{color:#1b7f3b}.failure{color:#b00020}.partial{color:#8a6d00}.skipped{color:#a15c00}.not-applicable{color:#555}.pending{color:#3b5bdb}
pre{background:#f6f6f6;padding:.6em;overflow:auto;max-height:30em;font-size:12px;white-space:pre-wrap}
details{margin:.3em 0}summary{cursor:pointer}
.small{color:#666;font-size:12px}
</style>
</head>
<body>
<h1>chatconform conformance report</h1>
<p>Target <b>{{.Target.URL}}</b>, feature level {{.Target.FeatureLevel}}{{if .Target.ServerVersion}}, server {{.Target.ServerVersion}}{{end}}, clock offset {{.Target.Realm.ClockOffsetSeconds}} s from the runner's.
Features: {{range .Target.Features}}{{.}} {{else}}none{{end}}.
Capabilities ({{.Target.CapabilitySource}}): {{range .Target.Capabilities}}{{.}} {{else}}none{{end}}.</p>
<p class="small">{{.APIVersion}} · generated {{.GeneratedAt.Format "2006-01-02 15:04:05 UTC"}} · run time {{.Suite.RunTime}} · harness {{.Suite.HarnessVersion}}{{if .Target.Realm.Defaulted}} · defaulted realm values: {{range .Target.Realm.Defaulted}}{{.}} {{end}}{{end}}</p>

<table class="counts">
<tr><th>Requirements</th><th class="passed">Passed</th><th class="partial">Partial</th><th class="failed">Failed</th><th class="skipped">Skipped</th><th class="not-applicable">Not applicable</th><th class="pending">Pending</th><th>Covered</th></tr>
<tr><td>{{.Counts.Requirements}}</td><td>{{.Counts.Passed}}</td><td>{{.Counts.Partial}}</td><td>{{.Counts.Failed}}</td><td>{{.Counts.Skipped}}</td><td>{{.Counts.NotApplicable}}</td><td>{{.Counts.Pending}}</td><td>{{.Counts.Covered}}</td></tr>
</table>
<p class="small">Specs: {{.Counts.Specs.Total}} ({{.Counts.Specs.Passed}} passed, {{.Counts.Specs.Failed}} failed, {{.Counts.Specs.Skipped}} skipped, {{.Counts.Specs.Pending}} pending).</p>

{{range .Warnings}}<p class="failed"><b>{{.}}</b></p>{{end}}
<h2>Profiles</h2>
<table>
<tr><th>Profile</th><th>Result</th><th class="passed">Passed</th><th class="partial">Partial</th><th class="failed">Failed</th><th class="skipped">Skipped</th><th class="not-applicable">Not applicable</th></tr>
{{range .Profiles}}<tr><td>{{.Name}}<div class="small">{{range .Features}}{{.}} {{end}}</div></td><td class="status {{.Result}}">{{.Result}}</td><td>{{.Count "passed"}}</td><td>{{.Count "partial"}}</td><td>{{.Count "failed"}}</td><td>{{.Count "skipped"}}</td><td>{{.Count "not-applicable"}}</td></tr>
{{end}}</table>

{{if .OtherFailures}}
<h2 class="failed">Failures outside any requirement</h2>
{{range .OtherFailures}}{{template "failure" .}}{{end}}
{{end}}

<h2>Requirements</h2>
<table>
<tr><th>ID</th><th>Status</th><th>Requirement</th></tr>
{{range .Sorted}}
<tr id="{{.ID}}">
<td><a href="#{{.ID}}">{{.ID}}</a></td>
<td class="status {{.Status}}">{{.Status}}</td>
<td>{{.Text}}<div class="small">{{.Section}}{{if .Feature}} · {{.Feature}}{{end}}{{if .MinLevel}} · level ≥ {{.MinLevel}}{{end}}</div>
{{if .Reason}}<div class="small">{{.Reason}}</div>{{end}}
{{if .NotRun}}<div class="small">Not run:<ul>{{range .NotRun}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
{{if .Specs}}<details><summary class="small">{{len .Specs}} spec(s)</summary><ul class="small">{{range .Specs}}<li>{{.}}</li>{{end}}</ul></details>{{end}}
{{range .Failures}}{{template "failure" .}}{{end}}
</td>
</tr>
{{end}}
</table>

<h2>Configuration (redacted)</h2>
<pre>{{.Config}}</pre>
</body>
</html>
{{define "failure"}}<div>
<p><b>{{.Spec}}</b> <span class="failed">{{.State}}</span>{{if .Location}} <span class="small">at {{.Location}}</span>{{end}}</p>
<pre>{{.Message}}</pre>
{{if .Notes}}<ul class="small">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Exchange}}<details open><summary class="small">HTTP exchange</summary><pre>{{.Exchange}}</pre></details>{{end}}
</div>{{end}}
`))
