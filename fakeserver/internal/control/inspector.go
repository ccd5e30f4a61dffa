package control

import (
	_ "embed"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// The inspector: GET /_fake/ (and /_fake/ui), a page a person opens while a test runs. The page
// holds no data: its script reads each section from GET /_fake/inspect, filtered and a page at
// a time, so that a realm of hundreds of users and channels stays one screen per section. With
// a control token, the script sends it as a bearer token, as every control client does; it
// keeps it in the tab's sessionStorage, never in an address (see inspector.html). Every request
// of the page also carries the process's inspector secret (InspectorHeader), which the page is
// given in a meta tag: no other page of the fake's origin can read it (webPage).

//go:embed inspector.html
var inspectorHTML string

// inspectorSecretSlot is where the page takes the secret.
const inspectorSecretSlot = `<meta name="inspector" content="INSPECTOR_SECRET">`

// inspector serves the page.
func (s *Service) inspector(w http.ResponseWriter, r *http.Request) {
	if _, err := params.Parse(r); err != nil { // a malformed query, refused as on every route
		handler.WriteError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	_, _ = io.WriteString(w, strings.Replace(inspectorHTML, inspectorSecretSlot, `<meta name="inspector" content="`+s.inspectorSecret+`">`, 1))
}

// Sections of the inspector, in the page's order.
var inspectorSections = []string{"overview", "users", "channels", "messages", "queues", "faults", "journal", "config"}

// Bounds of one page of a section, and of how far back the messages section reaches.
const (
	inspectorPageSize    = 50
	inspectorMaxPageSize = 500
	inspectorMaxMessages = 10_000
)

// inspectPage is one page of a section: how many items there are, how many the filter kept,
// and those from offset on.
type inspectPage struct {
	Section string `json:"section"`
	Total   int    `json:"total"`
	Matched int    `json:"matched"`
	Offset  int    `json:"offset"`
	Limit   int    `json:"limit"`
	Items   any    `json:"items"`
	// More tells that Matched is a lower bound: more items match than were searched.
	More bool `json:"more,omitempty"`
}

// inspect: GET /_fake/inspect?section=…&q=…&offset=…&limit=… — one page of a section, the
// items whose text contains q (any case); the journal also takes method, path, user, status.
func (s *Service) inspect(c *handler.Call) (handler.Fields, error) {
	section := c.P.RequiredEnum("section", inspectorSections...)
	q, _ := c.P.String("q")
	offset := intSetting(c, "offset", 0, 1<<31-1, 0)
	limit := intSetting(c, "limit", 1, inspectorMaxPageSize, inspectorPageSize)
	var jf pipeline.JournalFilter
	jf.Method, _ = c.P.String("method")
	jf.Path, _ = c.P.String("path")
	jf.User, _ = c.P.String("user")
	jf.Status = intSetting(c, "status", 0, 599, 0)
	if err := c.Done(); err != nil {
		return nil, err
	}
	if section == "overview" {
		return s.inspectOverview()
	}
	if section == "config" {
		return handler.Fields{"page": s.inspectConfig(q)}, nil
	}
	viewer, err := s.inspectorViewer()
	if err != nil {
		return nil, err
	}
	var pg inspectPage
	switch section {
	case "users":
		var users []inspectorUser
		for _, u := range s.state.Users(viewer) {
			users = append(users, inspectorUser{ID: u.UserID, FullName: u.FullName, Email: u.Email, Role: roleName(u.Role, u.IsBot), Active: u.IsActive})
		}
		pg = pageOf(users, q, offset, limit, func(u inspectorUser) string {
			return strings.Join([]string{u.FullName, u.Email, u.Role, activeWord(u.Active)}, " ")
		})
	case "channels":
		pg = pageOf(s.inspectorChannels(viewer), q, offset, limit, func(ch inspectorChannel) string {
			text := ch.Name
			for _, t := range ch.Topics {
				text += " " + t.Name
			}
			return text
		})
	case "messages":
		pg = s.inspectMessages(viewer, q, offset, limit)
	case "queues":
		var queues []inspectorQueue
		for _, qi := range s.hub.Queues() {
			queues = append(queues, inspectorQueue{ID: qi.ID, UserID: qi.UserID, Pending: qi.Pending, Polled: qi.Polled.Unix(), Waiting: qi.Waiting})
		}
		pg = pageOf(queues, q, offset, limit, func(qi inspectorQueue) string { return qi.ID })
	case "faults":
		var faults []inspectorFault
		for _, f := range s.faults.List() {
			faults = append(faults, inspectorFault{ID: f.ID, Method: f.Method, Path: f.Path, User: f.User, Status: f.Status, Code: f.Code,
				Msg: f.Msg, DelayMS: f.Delay.Milliseconds(), Drop: f.Drop, Times: f.Times})
		}
		pg = pageOf(faults, q, offset, limit, func(f inspectorFault) string {
			return strings.Join([]string{f.Method, f.Path, f.User, f.Code, f.Msg}, " ")
		})
	case "journal":
		if _, err := path.Match(jf.Path, ""); err != nil {
			return nil, apierr.BadRequest("Invalid path pattern: %s", jf.Path)
		}
		entries := s.journal.Matching(jf)
		slices.Reverse(entries) // newest first
		pg = pageOf(entries, q, offset, limit, func(e pipeline.JournalEntry) string { return e.String() + " " + e.Spec })
		pg.Total = len(s.journal.Matching(pipeline.JournalFilter{}))
	}
	pg.Section, pg.Offset, pg.Limit = section, offset, limit
	return handler.Fields{"page": pg}, nil
}

// inspectorUser, inspectorFault and inspectorQueue are what those sections show.
type inspectorUser struct {
	ID       int    `json:"id"`
	FullName string `json:"full_name"`
	Email    string `json:"email"`
	Role     string `json:"role"`
	Active   bool   `json:"active"`
}

type inspectorFault struct {
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Path    string `json:"path"`
	User    string `json:"user"`
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Msg     string `json:"msg"`
	DelayMS int64  `json:"delay_ms"`
	Drop    bool   `json:"drop"`
	Times   int    `json:"times"`
}

type inspectorQueue struct {
	ID      string `json:"id"`
	UserID  int    `json:"user_id"`
	Pending int    `json:"pending"`
	Polled  int64  `json:"polled"` // UNIX seconds, wall time
	Waiting bool   `json:"waiting"`
}

// inspectorViewer is the user the inspector reads the realm as: the fixture's owner.
func (s *Service) inspectorViewer() (int, error) {
	owner, _ := s.server.Fixture().UserByRole("owner")
	id, ok := s.state.UserIDByLogin(owner.Email)
	if !ok {
		return 0, apierr.BadRequest("The inspector reads the realm as the fixture's owner, %s, who is not active now", owner.Email)
	}
	return id, nil
}

// pageOf keeps the items whose text contains q, case-insensitively, and returns those from
// offset on, at most limit.
func pageOf[T any](items []T, q string, offset, limit int, text func(T) string) inspectPage {
	pg := inspectPage{Total: len(items)}
	kept := items
	if q = strings.ToLower(strings.TrimSpace(q)); q != "" {
		kept = nil
		for _, it := range items {
			if strings.Contains(strings.ToLower(text(it)), q) {
				kept = append(kept, it)
			}
		}
	}
	pg.Matched = len(kept)
	start := min(offset, len(kept))
	out := kept[start:min(start+limit, len(kept))]
	if out == nil {
		out = []T{}
	}
	pg.Items = out
	return pg
}

// inspectorChannel is a channel with its topics, most recent first.
type inspectorChannel struct {
	ID       int           `json:"id"`
	Name     string        `json:"name"`
	Private  bool          `json:"private"`
	Archived bool          `json:"archived"`
	Topics   []realm.Topic `json:"topics"`
}

func (s *Service) inspectorChannels(viewer int) []inspectorChannel {
	var out []inspectorChannel
	for _, ch := range s.state.Channels(viewer, realm.ChannelQuery{All: true}) {
		topics, _ := s.state.Topics(viewer, ch.StreamID, true)
		out = append(out, inspectorChannel{ID: ch.StreamID, Name: ch.Name, Private: ch.InviteOnly, Archived: ch.IsArchived, Topics: topics})
	}
	return out
}

// inspectorMessage is a message as the messages section shows it.
type inspectorMessage struct {
	ID      int    `json:"id"`
	Sent    int64  `json:"timestamp"`
	From    string `json:"sender"`
	To      string `json:"to"`
	Content string `json:"content"`
}

// inspectMessages pages the newest messages the viewer can read, newest first; q searches
// them as the API's search narrow does.
func (s *Service) inspectMessages(viewer int, q string, offset, limit int) inspectPage {
	query := realm.MessageQuery{Anchor: realm.AnchorNewest, NumBefore: min(offset+limit, inspectorMaxMessages),
		View: realm.ViewOptions{AllowEmptyTopicName: true}}
	if q = strings.TrimSpace(q); q != "" {
		query.Narrow = []realm.NarrowTerm{{Operator: "search", Operand: q}}
	}
	pg := inspectPage{Total: s.state.Footprint().Messages, Items: []inspectorMessage{}}
	win, err := s.state.Messages(viewer, query)
	if err != nil {
		return pg
	}
	msgs := win.Messages
	slices.Reverse(msgs)
	pg.Matched = len(msgs)
	switch {
	case win.FoundOldest:
	case q == "": // more than the window holds: all the realm's, as far as the page can tell
		pg.Matched = max(pg.Total, len(msgs)+1)
	default: // more matches than the window holds, how many is not known
		pg.Matched, pg.More = len(msgs)+1, true
	}
	items := []inspectorMessage{}
	for _, m := range msgs[min(offset, len(msgs)):] {
		to := "direct message"
		if name, ok := m.DisplayRecipient.(string); ok {
			to = "#" + name + " › " + m.Subject
		}
		items = append(items, inspectorMessage{ID: m.ID, Sent: m.Timestamp, From: m.SenderFullName, To: to, Content: m.Content})
	}
	pg.Items = items
	return pg
}

// inspectOverview is the page's header: the realm, its level and its clock.
func (s *Service) inspectOverview() (handler.Fields, error) {
	settings := s.state.Settings()
	return handler.Fields{"overview": map[string]any{
		"realm": settings.Name, "feature_level": settings.FeatureLevel, "version": settings.Version,
		"clock": s.clock.Unix(), "clock_mode": s.ClockMode(),
	}}, nil
}

// configSetting is one line of the configuration section.
type configSetting struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// inspectConfig lists every setting of the configuration as GET /_fake/config shows it.
func (s *Service) inspectConfig(q string) inspectPage {
	raw, _ := json.Marshal(s.shownConfig())
	var all map[string]any
	_ = json.Unmarshal(raw, &all)
	all["clock_mode"] = s.ClockMode()
	var settings []configSetting
	for _, name := range slices.Sorted(maps.Keys(all)) {
		settings = append(settings, configSetting{Name: name, Value: all[name]})
	}
	pg := pageOf(settings, q, 0, len(settings), func(c configSetting) string { return c.Name })
	pg.Section, pg.Limit = "config", len(settings)
	return pg
}

func roleName(code int, bot bool) string {
	if bot {
		return "bot"
	}
	return map[int]string{realm.RoleOwner: "owner", realm.RoleAdmin: "administrator", realm.RoleModerator: "moderator",
		realm.RoleMember: "member", realm.RoleGuest: "guest"}[code]
}

func activeWord(active bool) string {
	if active {
		return "active"
	}
	return "deactivated"
}
