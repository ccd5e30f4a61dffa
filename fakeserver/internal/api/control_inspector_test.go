package api_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/harness/browser"
)

// busyRealm gives the fake what one suite run leaves: some 220 more users and 237 more
// channels, a message, a refused request and a fault in force.
func busyRealm(t *testing.T, ts *fakeserver.TestServer) {
	t.Helper()
	owner, _ := ts.Server.As("owner")
	for i := range 220 {
		if _, err := owner.CreateUser(fmt.Sprintf("user%03d@chat.example.test", i), fmt.Sprintf("Suite User %03d", i), "member"); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 237 {
		if err := owner.CreateChannel(fmt.Sprintf("suite channel %03d", i), fakeserver.Public); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := owner.Send("general", "inspection", "a message sent just before"); err != nil {
		t.Fatal(err)
	}
	resp, err := ts.Client("member").Get(ts.URL + "/api/v1/messages/999999")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := ts.Server.InjectFault(fakeserver.Fault{Method: "POST", Path: "/api/v1/messages", Status: 503, Code: "SERVICE_UNAVAILABLE", Times: 2}); err != nil {
		t.Fatal(err)
	}
}

// TestInspectorInABrowser drives the inspector at /_fake/ in headless Chromium on a busy realm,
// with a control token: the token given in the fragment is kept in the tab, not in the address;
// each section is a page of 50 with its count, pages on, and filters; the faults and the whole
// configuration are shown; the reset button returns the fake to its start (the feature level
// it was started with included). A screenshot is kept for a person (its path is logged).
// Without Chromium (.ci/ensure-chromium installs it) the test says so and is skipped.
func TestInspectorInABrowser(t *testing.T) {
	chromium := browser.Open(t)
	ts := fakeserver.Start(t, fakeserver.WithControlToken("inspect-me"), fakeserver.WithFeatureLevel(300))
	busyRealm(t, ts)

	// Over HTTP: the page holds no data and needs no token; its data does.
	for _, c := range []struct {
		path   string
		status int
	}{{"/_fake/", 200}, {"/_fake/ui", 200}, {"/_fake/inspect?section=users", 401}} {
		resp, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("GET %s without the token: %d, want %d", c.path, resp.StatusCode, c.status)
		}
		if c.status == 200 && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("GET %s: the page may be framed: %q", c.path, resp.Header.Get("Content-Security-Policy"))
		}
	}

	page := chromium.Open()
	page.Navigate(ts.URL + "/_fake/#token=inspect-me")
	loaded := func(section string) string {
		return `document.getElementById("` + section + `").dataset.total !== undefined`
	}
	for _, s := range []string{"users", "channels", "messages", "queues", "faults", "journal", "config"} {
		page.WaitFor(s+" loaded", loaded(s), 15*time.Second)
	}
	var where struct {
		Href, Stored string
		Level        string
	}
	page.Eval(`({href: location.href, stored: sessionStorage.getItem("chatconform.controlToken"), level: document.getElementById("level").textContent})`, &where)
	if strings.Contains(where.Href, "inspect-me") || where.Stored != "inspect-me" {
		t.Errorf("the token: address %q, kept in the tab %q; want it out of the address and kept", where.Href, where.Stored)
	}
	if where.Level != "300" {
		t.Errorf("the header shows level %q, want 300", where.Level)
	}

	type shown struct {
		Total, Matched, Offset string
		Rows                   int
		Count, First, Nav      string
	}
	section := func(id string) shown {
		t.Helper()
		var s shown
		page.Eval(`(function () { var s = document.getElementById("`+id+`"), rows = s.querySelectorAll("tbody tr");
			return {total: s.dataset.total, matched: s.dataset.matched, offset: s.dataset.offset, rows: rows.length,
				count: s.querySelector(".count").textContent,
				first: rows.length ? Array.from(rows[0].cells).map(function (c) { return c.textContent; }).join(" | ") : "",
				nav: document.querySelector('[data-count="`+id+`"]').textContent}; })()`, &s)
		return s
	}
	users := section("users")
	if users.Total != "226" || users.Rows != 50 || users.Count != "(1–50 of 226)" || users.Nav != "226" {
		t.Errorf("users, first page: %+v; want 50 rows of 226", users)
	}
	if ch := section("channels"); ch.Total != "238" || ch.Rows != 50 {
		t.Errorf("channels, first page: %+v; want 50 rows of 238", ch)
	}

	// Paging on, then filtering, as a person would: a click, then typing.
	page.Eval(`document.querySelector('#users [data-page="1"]').click()`, nil)
	page.WaitFor("the second page of users", `document.getElementById("users").dataset.offset === "50"`, 10*time.Second)
	if users := section("users"); users.Rows != 50 || !strings.HasPrefix(users.First, "51 | ") || users.Count != "(51–100 of 226)" {
		t.Errorf("users, second page: %+v", users)
	}
	typeInto := func(selector, value string) {
		page.Eval(`(function () { var i = document.querySelector('`+selector+`'); i.value = "`+value+`";
			i.dispatchEvent(new Event("input", {bubbles: true})); })()`, nil)
	}
	typeInto(`#users [data-filter="q"]`, "max member")
	page.WaitFor("the users filter", `document.getElementById("users").dataset.matched === "1"`, 10*time.Second)
	if users := section("users"); users.Rows != 1 || !strings.Contains(users.First, "member@chat.example.test") || users.Nav != "1/226" {
		t.Errorf("users filtered by a name: %+v", users)
	}
	typeInto(`#channels [data-filter="q"]`, "inspection")
	page.WaitFor("the channels filter", `document.getElementById("channels").dataset.matched === "1"`, 10*time.Second)
	if ch := section("channels"); !strings.Contains(ch.First, "#general") {
		t.Errorf("channels filtered by a topic: %+v", ch)
	}
	if m := section("messages"); !strings.Contains(m.First, "a message sent just before") {
		t.Errorf("the newest message: %+v", m)
	}
	typeInto(`#journal [data-filter="status"]`, "400")
	page.WaitFor("the journal filter", `document.getElementById("journal").dataset.matched === "1"`, 10*time.Second)
	if j := section("journal"); !strings.Contains(j.First, "GET /api/v1/messages/999999") || !strings.Contains(j.First, "member@chat.example.test") {
		t.Errorf("the refused request in the journal: %+v", j)
	}
	if f := section("faults"); f.Total != "1" || !strings.Contains(f.First, "POST /api/v1/messages") || !strings.Contains(f.First, "503 SERVICE_UNAVAILABLE") ||
		!strings.Contains(f.First, "2 requests") {
		t.Errorf("the fault in force: %+v", f)
	}
	// One section at a time: the navigation shows the one it names.
	page.Eval(`document.querySelector('#nav a[href="#journal"]').click()`, nil)
	page.WaitFor("the journal alone", `!document.getElementById("journal").hidden && document.getElementById("users").hidden`, 10*time.Second)

	var settings []string
	page.Eval(`Array.from(document.querySelectorAll("#config tbody tr td:first-child")).map(function (td) { return td.textContent; })`, &settings)
	config := requireSuccess(t, "config", do(t, ts.URL, request{method: http.MethodGet, path: "/_fake/config", auth: "Bearer inspect-me"}))["config"].(map[string]any)
	if len(settings) != len(config)+1 { // and the clock's mode
		t.Errorf("the configuration section shows %d settings, want all %d of GET /_fake/config and the clock mode: %v", len(settings), len(config), settings)
	}

	shot := filepath.Join(os.TempDir(), "chatconform-inspector.png")
	chromium.Screenshot(ts.URL+"/_fake/#token=inspect-me", shot, 1280, 1600)
	if info, err := os.Stat(shot); err != nil || info.Size() == 0 {
		t.Errorf("no screenshot: %v", err)
	} else {
		t.Logf("screenshot of the inspector: %s (%d bytes)", shot, info.Size())
	}

	// The reset button: back to the fixture's six users, at the level the fake started with.
	page.Eval(`document.getElementById("reset").click()`, nil)
	page.WaitFor("the reset", `document.getElementById("status").textContent === "reset done" && document.getElementById("users").dataset.total === "6"`, 10*time.Second)
	if fp := ts.Server.Footprint(); fp.ActiveHumans+fp.ActiveBots+fp.DeactivatedUsers != 6 || len(ts.Server.Faults()) != 0 {
		t.Errorf("after the reset button: %+v, faults %v", fp, ts.Server.Faults())
	}
	page.WaitFor("the level after the reset", `document.getElementById("level").textContent === "300"`, 10*time.Second)

	// A tab without the token asks for it, and keeps what it is given out of the address.
	other := chromium.Open()
	other.Navigate(ts.URL + "/_fake/ui")
	other.WaitFor("the token form", `!document.getElementById("token-form").hidden`, 10*time.Second)
	other.Eval(`document.getElementById("token-input").value = "inspect-me"; document.getElementById("token-form").requestSubmit()`, nil)
	other.WaitFor("users after the token was given", `document.getElementById("users").dataset.total === "6"`, 10*time.Second)
	var href string
	other.Eval(`location.href`, &href)
	if href != ts.URL+"/_fake/ui" {
		t.Errorf("the address after the token was given: %q", href)
	}
}

// TestInspectPages: GET /_fake/inspect gives a section a page at a time, counted and filtered,
// where no browser runs; the messages section pages back through more than one window.
func TestInspectPages(t *testing.T) {
	ts := fakeserver.Start(t)
	busyRealm(t, ts)
	owner, _ := ts.Server.As("owner")
	for i := range 120 {
		if _, err := owner.Send("general", "paging", fmt.Sprintf("numbered message %03d", i)); err != nil {
			t.Fatal(err)
		}
	}
	type page struct {
		Total, Matched, Offset, Items int
		First                         string
	}
	inspect := func(query string) page {
		t.Helper()
		env := requireSuccess(t, query, get(t, ts.URL, "", "/_fake/inspect", query))
		pg := env["page"].(map[string]any)
		items := pg["items"].([]any)
		out := page{Total: int(pg["total"].(float64)), Matched: int(pg["matched"].(float64)), Offset: int(pg["offset"].(float64)), Items: len(items)}
		if len(items) > 0 {
			out.First = canonical(items[0])
		}
		return out
	}
	// Every setting of GET /_fake/config, and the clock's mode.
	settings := len(requireSuccess(t, "config", get(t, ts.URL, "", "/_fake/config", ""))["config"].(map[string]any)) + 1
	for _, tc := range []struct {
		query string
		want  page
		first string // a part of the first item
	}{
		{"section=users", page{Total: 226, Matched: 226, Items: 50}, `"email":"owner@chat.example.test"`},
		{"section=users&offset=200", page{Total: 226, Matched: 226, Offset: 200, Items: 26}, `"id":201`},
		{"section=users&q=SUITE%20USER%2000", page{Total: 226, Matched: 10, Items: 10}, `"full_name":"Suite User 000"`},
		{"section=users&offset=500", page{Total: 226, Matched: 226, Offset: 500}, ""},
		{"section=channels&q=paging", page{Total: 238, Matched: 1, Items: 1}, `"name":"general"`},
		{"section=messages", page{Total: 121, Matched: 121, Items: 50}, `numbered message 119`},
		{"section=messages&offset=100", page{Total: 121, Matched: 121, Offset: 100, Items: 21}, `numbered message 019`},
		{"section=messages&q=numbered&limit=500", page{Total: 121, Matched: 120, Items: 120}, `numbered message 119`},
		{"section=journal&status=400", page{Total: 1, Matched: 1, Items: 1}, `"path":"/api/v1/messages/999999"`},
		{"section=faults", page{Total: 1, Matched: 1, Items: 1}, `"code":"SERVICE_UNAVAILABLE"`},
		{"section=config&q=rate_limit_", page{Total: settings, Matched: 2, Items: 2}, `"name":"rate_limit_requests"`},
	} {
		got := inspect(tc.query)
		first := got.First
		got.First = ""
		if got != tc.want || !strings.Contains(first, tc.first) {
			t.Errorf("%s: %+v, first %s; want %+v, first with %s", tc.query, got, first, tc.want, tc.first)
		}
	}
}
