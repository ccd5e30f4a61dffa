package fakeserver

import (
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// The inspector: GET /_fake/ui, one page a person can look at while a test runs: the realm's
// users, channels and topics, the newest messages, the clock (with buttons to move it), the
// configuration, the event queues and the journal (newest first, filtered by the page's form).
// Server-rendered with html/template; its little script only sends the clock's moves.

type inspectorView struct {
	Realm    string
	Level    int
	Clock    time.Time
	Mode     ClockMode
	Users    []realm.UserView
	Channels []inspectorChannel
	Messages []realm.MessageView
	Config   configView
	Queues   []events.QueueInfo
	Journal  []JournalEntry
	Filter   JournalFilter
	Token    string
}

type inspectorChannel struct {
	realm.ChannelListItem
	Topics []realm.Topic
}

// inspectorJournal is how many journal entries the page shows.
const inspectorJournal = 200

func (s *Server) inspector(w http.ResponseWriter, r *http.Request) {
	if _, err := params.Parse(r); err != nil { // a malformed query, refused as on every route
		writeError(w, err)
		return
	}
	q := r.URL.Query()
	f := JournalFilter{Method: q.Get("method"), Path: q.Get("path"), User: q.Get("user")}
	f.Status, _ = strconv.Atoi(q.Get("status"))
	owner, _ := s.Fixture().UserByRole("owner")
	ownerID, _ := s.state.UserIDByLogin(owner.Email)
	v := inspectorView{Realm: s.state.Settings().Name, Level: s.state.Settings().FeatureLevel, Clock: s.Clock(), Mode: s.ClockMode(),
		Users: s.state.Users(ownerID), Config: s.shownConfig(), Queues: s.hub.Queues(), Filter: f, Token: q.Get("token")}
	for _, ch := range s.state.Channels(ownerID, realm.ChannelQuery{All: true}) {
		topics, _ := s.state.Topics(ownerID, ch.StreamID, true)
		v.Channels = append(v.Channels, inspectorChannel{ChannelListItem: ch, Topics: topics})
	}
	if win, err := s.state.Messages(ownerID, realm.MessageQuery{Anchor: realm.AnchorNewest, NumBefore: 20,
		View: realm.ViewOptions{AllowEmptyTopicName: true}}); err == nil {
		v.Messages = win.Messages
		slices.Reverse(v.Messages)
	}
	v.Journal = s.Journal(f)
	slices.Reverse(v.Journal)
	if len(v.Journal) > inspectorJournal {
		v.Journal = v.Journal[:inspectorJournal]
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'")
	if err := inspectorPage.Execute(w, v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

var inspectorPage = template.Must(template.New("inspector").Funcs(template.FuncMap{
	"unix": func(sec int64) string { return time.Unix(sec, 0).UTC().Format("2006-01-02 15:04:05") },
	"ms":   func(ms int64) string { return time.UnixMilli(ms).UTC().Format("15:04:05.000") },
	"role": func(code int) string {
		return map[int]string{100: "owner", 200: "administrator", 300: "moderator", 400: "member", 600: "guest"}[code]
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>chatconform fake: {{.Realm}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:80em;padding:0 1em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
.small{color:#666;font-size:12px}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;margin:0}
.err{color:#b00020}details{margin:0}summary{cursor:pointer}
</style></head><body>
<h1>chatconform fake: {{.Realm}}</h1>
<p>Feature level {{.Level}} · clock <b id="clock">{{.Clock.UTC.Format "2006-01-02 15:04:05"}} UTC</b> ({{.Mode}})
<button data-advance="60">+1 min</button> <button data-advance="3600">+1 h</button> <button data-advance="86400">+1 day</button>
<span id="clock-error" class="err"></span></p>

<h2>Users ({{len .Users}})</h2>
<table id="users"><tr><th>ID</th><th>Name</th><th>Email</th><th>Role</th><th></th></tr>
{{range .Users}}<tr><td>{{.UserID}}</td><td>{{.FullName}}</td><td>{{.Email}}</td><td>{{role .Role}}</td><td class="small">{{if .IsBot}}bot{{end}}{{if not .IsActive}} deactivated{{end}}</td></tr>
{{end}}</table>

<h2>Channels ({{len .Channels}})</h2>
<table id="channels"><tr><th>ID</th><th>Channel</th><th>Topics, most recent first</th></tr>
{{range .Channels}}<tr><td>{{.StreamID}}</td><td>#{{.Name}}{{if .InviteOnly}} <span class="small">private</span>{{end}}{{if .IsArchived}} <span class="small">archived</span>{{end}}</td>
<td class="small">{{range .Topics}}{{.Name}} ({{.MaxID}}) {{end}}</td></tr>
{{end}}</table>

<h2>Newest messages</h2>
<table id="messages"><tr><th>ID</th><th>Sent</th><th>From</th><th>To</th><th>Content</th></tr>
{{range .Messages}}<tr><td>{{.ID}}</td><td class="small">{{unix .Timestamp}}</td><td>{{.SenderFullName}}</td><td>{{if eq .Type "stream"}}#{{.DisplayRecipient}} › {{.Subject}}{{else}}direct{{end}}</td><td>{{.Content}}</td></tr>
{{end}}</table>

<h2>Event queues ({{len .Queues}})</h2>
<table id="queues"><tr><th>Queue</th><th>User</th><th>Pending events</th><th>Last polled</th></tr>
{{range .Queues}}<tr><td>{{.ID}}</td><td>{{.UserID}}</td><td>{{.Pending}}</td><td class="small">{{.Polled.UTC.Format "15:04:05"}}{{if .Waiting}} (polling now){{end}}</td></tr>
{{end}}</table>

<h2>Journal (newest first)</h2>
<form method="get" class="small">{{if .Token}}<input type="hidden" name="token" value="{{.Token}}">{{end}}
Method <input name="method" size="6" value="{{.Filter.Method}}"> Path <input name="path" size="30" value="{{.Filter.Path}}" placeholder="/api/v1/messages/*">
User <input name="user" size="24" value="{{.Filter.User}}"> Status <input name="status" size="4" value="{{if .Filter.Status}}{{.Filter.Status}}{{end}}"> <button>Filter</button></form>
<table id="journal"><tr><th>Time</th><th>Request</th><th>User</th><th>Status</th><th>µs</th></tr>
{{range .Journal}}<tr><td class="small">{{ms .Time}}</td><td><details><summary>{{.Method}} {{.Path}}</summary><pre>query: {{.Query}}
spec: {{.Spec}}
virtual time: {{unix .VirtualTime}}{{range $k, $v := .Params}}
{{$k}} = {{$v}}{{end}}
answer: {{.Response}}</pre></details></td><td>{{.User}}</td><td{{if ge .Status 400}} class="err"{{end}}>{{.Status}}</td><td>{{.DurationMicros}}</td></tr>
{{end}}</table>

<h2>Configuration</h2>
<table id="config">{{with .Config}}
<tr><td>push notification service</td><td>{{.PushConfigured}}</td></tr>
<tr><td>video calls</td><td>{{.VideoCallsConfigured}}</td></tr>
<tr><td>JWT key set</td><td>{{.JWTKeySet}}</td></tr>
<tr><td>event poll timeout (s)</td><td>{{.EventPollTimeoutSeconds}}</td></tr>
<tr><td>rate limit</td><td>{{if .RateLimitRequests}}{{.RateLimitRequests}} per {{.RateLimitWindowSeconds}} s{{else}}off{{end}}</td></tr>
{{end}}</table>
<script>
// The clock buttons post to the control API as JSON, which no cross-site form can send.
document.querySelectorAll("button[data-advance]").forEach(function (b) {
  b.addEventListener("click", function () {
    var headers = {"Content-Type": "application/json"}, token = new URLSearchParams(location.search).get("token");
    if (token) { headers["Authorization"] = "Bearer " + token; }
    fetch("/_fake/clock", {method: "POST", headers: headers, body: JSON.stringify({advance: Number(b.dataset.advance)})})
      .then(function (r) { return r.ok ? location.reload() : r.json().then(function (e) { document.getElementById("clock-error").textContent = e.msg; }); });
  });
});
</script>
</body></html>`))
