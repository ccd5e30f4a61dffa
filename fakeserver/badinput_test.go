package fakeserver_test

// Bad input to every route of the fake gets a JSON error envelope, never a 5xx and never a
// state change (docs/design.md, "One envelope, typed errors").
//
// The route table below has one entry per route the chi router serves; TestRouteTableCoversRouter
// walks the router and fails when a route has no entry (or an entry names no route), so a
// new route cannot be forgotten. Most cases are generated from the entry's parameter list
// (missing, malformed JSON, wrong JSON type, unknown enum value, invalid UTF-8, 1 MiB value,
// bad path IDs, bad bodies, missing or bad credentials, wrong methods); route-specific cases
// are listed with the entry. Each route runs on its own fake; after every case the realm
// state read back through the API must be unchanged, and at the end the entry's valid request
// must succeed, which proves each case was one defect away from a valid request.

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// recordField puts one field of a response into a state snapshot: the field's value, the
// error msg when the response lacks it, or the status and body when it is no envelope.
func recordField(state map[string]any, key string, res response, name string) {
	switch v, ok := res.env[name]; {
	case res.env == nil:
		state[key] = fmt.Sprintf("HTTP %d %s", res.status, res.body)
	case ok:
		state[key] = v
	default:
		state[key] = res.env["msg"]
	}
}

// stateOf reads, through the API, everything a bad request could have changed.
func stateOf(t testing.TB, base string) string {
	t.Helper()
	state := map[string]any{}
	field := func(key string, res response, name string) { recordField(state, key, res, name) }
	field("users", get(t, base, ownerAuth, "/api/v1/users", ""), "members")
	field("own user", get(t, base, ownerAuth, "/api/v1/users/me", ""), "full_name")
	field("linkifiers", get(t, base, ownerAuth, "/api/v1/realm/linkifiers", ""), "linkifiers")
	field("playgrounds", post(t, base, ownerAuth, "/api/v1/register", "fetch_event_types", `["realm_playgrounds"]`), "realm_playgrounds")
	field("topics", get(t, base, ownerAuth, "/api/v1/users/me/1/topics", ""), "topics")
	for id := 1; id <= 3; id++ {
		field(fmt.Sprintf("message %d", id), get(t, base, ownerAuth, fmt.Sprintf("/api/v1/messages/%d", id), ""), "message")
	}
	// The setup channel too: a wrongful archive hides it from lookups by name.
	for _, name := range append([]string{setupChan}, probes...) {
		field("channel "+name, get(t, base, ownerAuth, "/api/v1/get_stream_id", url.Values{"stream": {name}}.Encode()), "stream_id")
	}
	field("clock", get(t, base, "", "/_fake/clock", ""), "now")
	field("config", get(t, base, "", "/_fake/config", ""), "config")
	integrationStateOf(t, base, state)
	clientStateOf(t, base, state)
	personalStateOf(t, base, state)
	return canonical(state)
}

// setUp gives every route's fake a message, a linkifier and a playground (each with ID 1),
// so that the delete routes have something to delete and a wrongful reset shows.
func setUp(t testing.TB, base string) {
	t.Helper()
	requireSuccess(t, "setup message", post(t, base, ownerAuth, "/api/v1/messages",
		"type", "channel", "to", setupChan, "topic", "setup", "content", "setup message"))
	requireSuccess(t, "setup linkifier", post(t, base, ownerAuth, "/api/v1/realm/filters",
		"pattern", "SETUP-(?P<id>[0-9]+)", "url_template", "https://setup.example/{id}"))
	requireSuccess(t, "setup playground", post(t, base, ownerAuth, "/api/v1/realm/playgrounds",
		"name", "Setup Playground", "pygments_language", "Python", "url_template", "https://setup.example/?code={code}"))
	integrationSetUp(t, base)
	clientSetUp(t, base)
	personalSetUp(t, base)
}

// freshState resets the fake to its fixture plus the setup objects and returns that state.
func freshState(t testing.TB, base string) string {
	t.Helper()
	requireSuccess(t, "reset", do(t, base, request{method: "POST", path: "/_fake/reset"}))
	setUp(t, base)
	return stateOf(t, base)
}

// ownerQueue stands for the owner's first queue in the cases; its id depends on how many
// resets the server has seen, so the runner fills it in (withOwnerQueue).
const ownerQueue = "OWNERQUEUE"

// withOwnerQueue is c with ownerQueue replaced by the id of the owner's first queue after
// the given number of resets (queue ids are "<start>-<resets>:<n>"), and setupUpload by the
// setup upload's (the server's first load counts too).
func (c badCase) withOwnerQueue(resets int) badCase {
	c.req.path = strings.ReplaceAll(c.req.path, setupUpload, setupUploadHash(resets+1))
	id := fmt.Sprintf("%d-%d:1", defaultFixture.Realm.StartTime, resets)
	c.req.query = strings.ReplaceAll(c.req.query, ownerQueue, url.QueryEscape(id))
	c.req.body = bytes.ReplaceAll(c.req.body, []byte(ownerQueue), []byte(url.QueryEscape(id)))
	c.want.msg = strings.ReplaceAll(c.want.msg, ownerQueue, id)
	return c
}

func TestBadInput(t *testing.T) {
	methods := walkRoutes(t)
	total := 0
	for _, rs := range routeTable() {
		cs := cases(rs, methods)
		total += len(cs)
		t.Run(rs.method+" "+rs.pattern, func(t *testing.T) {
			t.Parallel()
			ts := newServer(t)
			setUp(t, ts.URL)
			before := stateOf(t, ts.URL)
			resets := 0
			for _, c := range cs {
				t.Run(c.name, func(t *testing.T) {
					c := c.withOwnerQueue(resets)
					res := do(t, ts.URL, c.req)
					if successProblem(res) == "" {
						if !c.want.tolerant {
							t.Errorf("bad input accepted (HTTP %d): %s", res.status, res)
						}
						// Start the next case afresh from a known state.
						before, resets = freshState(t, ts.URL), resets+1
						return
					}
					checkBad(t, c, res)
					if after := stateOf(t, ts.URL); after != before {
						t.Errorf("state changed:\nbefore %s\nafter  %s", cut(before, 2000), cut(after, 2000))
						before, resets = freshState(t, ts.URL), resets+1
					}
				})
			}
			// The valid request, last: it proves the cases were one defect away from success.
			res := do(t, ts.URL, badCase{req: rs.build(rs.validValues())}.withOwnerQueue(resets).req)
			switch p := successProblem(res); {
			case rs.unknowable != "":
				checkBad(t, badCase{want: want{status: 404}}, res)
			case rs.raw && (res.status < 200 || res.status >= 400):
				t.Errorf("the table's valid request fails: HTTP %d: %s", res.status, res)
			case !rs.raw && p != "":
				t.Errorf("the table's valid request fails: %s (HTTP %d): %s", p, res.status, res)
			}
		})
	}
	t.Logf("%d bad-input cases", total)
}

// checkBad asserts the error envelope and the case's expectations.
func checkBad(t *testing.T, c badCase, res response) {
	t.Helper()
	if p := envelopeProblem(res); p != "" {
		t.Errorf("not an error envelope: %s (HTTP %d): %s", p, res.status, res)
		return
	}
	if _, ok := res.env["ignored_parameters_unsupported"]; ok {
		t.Errorf("an error carries ignored_parameters_unsupported: %s", res)
	}
	if c.want.status != 0 && res.status != c.want.status {
		t.Errorf("HTTP %d, want %d: %s", res.status, c.want.status, res)
	}
	if c.want.code != "" && res.env["code"] != c.want.code {
		t.Errorf("code %v, want %s: %s", res.env["code"], c.want.code, res)
	}
	if c.want.msg != "" && res.env["msg"] != c.want.msg {
		t.Errorf("msg %q, want %q", res.env["msg"], c.want.msg)
	}
	if res.status == http.StatusUnauthorized && res.header.Get("WWW-Authenticate") == "" {
		t.Errorf("401 without WWW-Authenticate")
	}
	if res.env["code"] == "REQUEST_VARIABLE_MISSING" && res.env["var_name"] == nil {
		t.Errorf("REQUEST_VARIABLE_MISSING without var_name: %s", res)
	}
}

// TestWrongMethodAllowHeader: a 405 names the methods the path does take (HEAD wherever GET)
// in an Allow header and allowed_methods, without a code and before authentication, as the
// real server's does (and as routes.go's wrongMethod says it does).
func TestWrongMethodAllowHeader(t *testing.T) {
	ts := newServer(t)
	var problems []string
	// The methods served at the fixture's level, by sample path (two patterns may give the
	// same path: /users/{email} and /users/{user_id} both give /users/1).
	served, walkedAt := map[string][]string{}, map[string][]string{}
	for pattern, walked := range walkRoutes(t) {
		path := regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(pattern, "1")
		walkedAt[path] = append(walkedAt[path], walked...)
		for _, m := range walked {
			if ts.Server.ServedAtLevel(m, pattern) && !slices.Contains(served[path], m) {
				served[path] = append(served[path], m)
			}
		}
	}
	for path, walked := range walkedAt {
		// Only the methods served at the fixture's level are allowed; a path none of whose
		// routes is served there is unknown.
		methods := served[path]
		if len(methods) == 0 {
			if res := do(t, ts.URL, request{method: walked[0], path: path, auth: ownerAuth}); res.status != http.StatusNotFound {
				problems = append(problems, fmt.Sprintf("%s %s, served at no method at this level: HTTP %d, want 404", walked[0], path, res.status))
			}
			continue
		}
		// PUT, unless the path takes it (PUT /bot_storage): then another method it does not take.
		wrong := http.MethodPut
		for _, m := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodPost, http.MethodGet} {
			if !slices.Contains(methods, m) {
				wrong = m
				break
			}
		}
		res := do(t, ts.URL, request{method: wrong, path: path, auth: ownerAuth})
		checkBad(t, badCase{want: want{status: 405}}, res)
		if anon := do(t, ts.URL, request{method: wrong, path: path}); anon.status != http.StatusMethodNotAllowed {
			problems = append(problems, fmt.Sprintf("%s %s without credentials: HTTP %d, want 405 before authentication", wrong, path, anon.status))
		}
		allow := strings.Join(res.header.Values("Allow"), ", ")
		if slices.Contains(methods, http.MethodGet) {
			methods = append(slices.Clone(methods), http.MethodHead)
		}
		if canonical(res.env["allowed_methods"]) != canonical(strings.Split(allow, ", ")) {
			problems = append(problems, fmt.Sprintf("%s %s: allowed_methods %v, Allow %q", wrong, path, res.env["allowed_methods"], allow))
		}
		for _, m := range methods {
			if !strings.Contains(allow, m) {
				problems = append(problems, fmt.Sprintf("%s %s: Allow %q lacks %s", wrong, path, allow, m))
			}
		}
		if got := len(strings.Split(allow, ", ")); got != len(methods) {
			problems = append(problems, fmt.Sprintf("%s %s: Allow %q, want exactly %v", wrong, path, allow, methods))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		t.Errorf("%d of the 405 answers lack methods in their Allow header, e.g.\n%s", len(problems), strings.Join(problems[:min(3, len(problems))], "\n"))
	}
}

// TestUnknownRoutes: paths that match no route, inside and outside /api/v1.
func TestUnknownRoutes(t *testing.T) {
	ts := newServer(t)
	long := "/api/v1/" + strings.Repeat("x", 64<<10)
	for _, tc := range []struct {
		method, path, auth string
		want               want
	}{
		{"GET", "/api/v1/nonexistent", ownerAuth, notFound404},
		{"POST", "/api/v1/nonexistent", ownerAuth, notFound404},
		{"GET", "/api/v1/nonexistent", "", bad(401, "UNAUTHORIZED", "")},
		{"DELETE", "/api/v1/users/me/subscriptions/extra", "", bad(401, "UNAUTHORIZED", "")},
		{"GET", "/api/v1/", ownerAuth, notFound404},
		{"GET", "/api/v1", ownerAuth, notFound404},
		{"GET", "/api/v1//users", ownerAuth, notFound404},
		{"GET", "/api/v1/users/", ownerAuth, notFound404},
		{"GET", "/API/V1/users", ownerAuth, notFound404},
		{"GET", "/api/v2/users", ownerAuth, notFound404},
		{"GET", "/api/v1/messages/1/nonexistent", ownerAuth, notFound404},
		{"GET", "/api/v1/%FF%FE", ownerAuth, notFound404},
		// Under /api/v1 the fake checks credentials before routing (routes.go, unknownRoute).
		{"GET", "/api/v1/server_settings/extra", "", bad(401, "UNAUTHORIZED", "")},
		{"GET", long, ownerAuth, notFound404},
		{"GET", "/", "", notFound404},
		{"GET", "/nonexistent", "", notFound404},
		{"POST", "/users", ownerAuth, notFound404},
		{"GET", "/_fake/nonexistent", "", notFound404},
		{"POST", "/_fake/clock/advance", "", notFound404},
		{"GET", "/%FF", "", notFound404},
	} {
		t.Run(tc.method+" "+cut(tc.path, 60), func(t *testing.T) {
			res := do(t, ts.URL, request{method: tc.method, path: tc.path, auth: tc.auth})
			checkBad(t, badCase{want: tc.want}, res)
		})
	}
}

// TestUnauthenticatedBadInputIsUnauthorized: without credentials, nothing about the request
// is looked at; the answer is 401 whatever else is wrong with it, except a wrong method,
// which the real server's URL dispatch answers first (405, see TestWrongMethodAllowHeader).
func TestUnauthenticatedBadInputIsUnauthorized(t *testing.T) {
	ts := newServer(t)
	for _, req := range []request{
		{method: "POST", path: "/api/v1/messages", body: []byte("x=%zz"), contentType: formType},
		{method: "POST", path: "/api/v1/messages", query: "%zz"},
		{method: "POST", path: "/api/v1/users/me/subscriptions", body: []byte("subscriptions=[1,"), contentType: formType},
		{method: "GET", path: "/api/v1/messages/" + huge},
	} {
		res := do(t, ts.URL, req)
		checkBad(t, badCase{want: bad(401, "UNAUTHORIZED", "")}, res)
	}
}

// TestOversizedBody: a body over the fake's limit is refused with an envelope.
func TestOversizedBody(t *testing.T) {
	ts := newServer(t)
	before := stateOf(t, ts.URL)
	body := formBody("type", "channel", "to", setupChan, "topic", "big", "content", strings.Repeat("x", 26<<20))
	res := do(t, ts.URL, request{method: "POST", path: "/api/v1/messages", body: body, contentType: formType, auth: ownerAuth})
	checkBad(t, badCase{}, res)
	if after := stateOf(t, ts.URL); after != before {
		t.Errorf("state changed: %s", cut(after, 1000))
	}
}

// TestTinyRealmLimits: a fixture may set max_topic_length and max_message_length; long
// topics and contents are truncated to them, whatever they are, without a server error.
func TestTinyRealmLimits(t *testing.T) {
	ts := newServer(t)
	yaml := strings.NewReplacer("max_topic_length: 60", "max_topic_length: 1", "max_message_length: 10000", "max_message_length: 1").
		Replace(string(fixtures.DefaultYAML()))
	requireSuccess(t, "load fixture", do(t, ts.URL, request{method: "POST", path: "/_fake/fixture", body: formBody("fixture", yaml), contentType: formType}))
	for _, kv := range [][]string{
		{"topic", "a long topic", "content", "x"},
		{"topic", "t", "content", "a long content"},
	} {
		res := post(t, ts.URL, ownerAuth, "/api/v1/messages", append([]string{"type", "channel", "to", setupChan}, kv...)...)
		if res.status >= 500 || (successProblem(res) != "" && envelopeProblem(res) != "") {
			t.Errorf("send with %v: HTTP %d: %s", kv, res.status, res)
		}
	}
}

// fuzzRoutes are the routes FuzzParams sends arbitrary parameters to, with a valid base.
var fuzzRoutes = []struct {
	method, path string
	base         []string
}{
	{"POST", "/api/v1/messages", []string{"type", "channel", "to", "general", "topic", "fuzz", "content", "hi"}},
	{"POST", "/api/v1/users/me/subscriptions", []string{"subscriptions", `[{"name":"fuzz"}]`}},
	{"POST", "/api/v1/realm/filters", []string{"pattern", "F-(?P<id>[0-9]+)", "url_template", "https://f.example/{id}"}},
	{"POST", "/api/v1/realm/playgrounds", []string{"name", "Fuzz", "pygments_language", "Go", "url_template", "https://f.example/{code}"}},
	{"POST", "/api/v1/register", nil},
	{"PATCH", "/api/v1/users/4", []string{"full_name", "Fuzzed"}},
	{"GET", "/api/v1/users/me/1/topics", nil},
	{"POST", "/api/v1/bots", []string{"full_name", "Fuzz Bot", "short_name", "fuzz"}},
	{"POST", "/api/v1/users", []string{"email", "fuzz@chat.example.test", "password", "fuzz-password", "full_name", "Fuzz"}},
	{"POST", "/_fake/clock", []string{"advance", "1"}},
}

// FuzzParams sends arbitrary parameter names and values (or, with the high bit of sel set,
// an arbitrary raw query and body) to a few routes: the answer is always an envelope and
// never a server error.
func FuzzParams(f *testing.F) {
	seeds := []struct {
		sel         uint8
		name, value string
	}{
		{0, "content", "hello **world**"},
		{0, "to", "[4]"},
		{0, "topic", "a\x00b"},
		{0, "type", "direct"},
		{1, "subscriptions", `[{"name":"x","description":5}]`},
		{1, "principals", "[99999999999999999999]"},
		{2, "pattern", "(?P<id>.*)"},
		{2, "url_template", "{+id}{#id}{?id*}"},
		{2, "example_input", "F-1"},
		{3, "url_template", "{code:3}"},
		{4, "narrow", `[["stream","general"]]`},
		{4, "fetch_event_types", `["realm_linkifiers", 5]`},
		{5, "role", "100"},
		{6, "allow_empty_topic_name", "true"},
		{7, "bot_type", "4"},
		{8, "email", "x@y.z"},
		{9, "now", "-62135596801"},
		{9, "advance", "9223372036854775807"},
		{128, "a=%zz", "x=1&y=%"},
		{129, "", "subscriptions=%5B%7B%22name%22%3A%22q%22%7D%5D"},
	}
	for _, s := range seeds {
		f.Add(s.sel, s.name, s.value)
	}
	srv := fakeserver.New()
	f.Fuzz(func(t *testing.T, sel uint8, name, value string) {
		// Each input runs on the fixture's state, so a failure reproduces from the input alone.
		srv.Reset()
		rt := fuzzRoutes[int(sel&0x7f)%len(fuzzRoutes)]
		var rawQuery, body string
		if sel&0x80 != 0 {
			rawQuery, body = name, value
		} else {
			v := url.Values{}
			for i := 0; i+1 < len(rt.base); i += 2 {
				v.Set(rt.base[i], rt.base[i+1])
			}
			v.Set(name, value)
			if rt.method == http.MethodGet {
				rawQuery = v.Encode()
			} else {
				body = v.Encode()
			}
		}
		req, err := http.NewRequest(rt.method, "http://fake.test"+rt.path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.URL.RawQuery = rawQuery
		req.Header.Set("Content-Type", formType)
		if !strings.HasPrefix(rt.path, "/_fake/") {
			req.Header.Set("Authorization", ownerAuth)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
		res.env = decodeObject(res.body)
		if successProblem(res) != "" {
			if p := envelopeProblem(res); p != "" {
				t.Fatalf("%s %s ?%q body %q: %s (HTTP %d): %s", rt.method, rt.path, rawQuery, body, p, res.status, res)
			}
		}
	})
}

// TestDuplicateBotNameUnderMixedCaseHost: a short name already in use is refused whatever
// the case of the realm host the bot email is built from.
func TestDuplicateBotNameUnderMixedCaseHost(t *testing.T) {
	ts := newServer(t)
	yaml := strings.Replace(string(fixtures.DefaultYAML()), "host: chat.example.test", "host: Chat.Example.Test", 1)
	requireSuccess(t, "load fixture", do(t, ts.URL, request{method: "POST", path: "/_fake/fixture", body: formBody("fixture", yaml), contentType: formType}))
	requireSuccess(t, "first bot", post(t, ts.URL, ownerAuth, "/api/v1/bots", "full_name", "Dup", "short_name", "dup"))
	before := stateOf(t, ts.URL)
	res := post(t, ts.URL, ownerAuth, "/api/v1/bots", "full_name", "Dup Again", "short_name", "dup")
	checkBad(t, badCase{want: badRequest("Username already in use")}, res)
	if after := stateOf(t, ts.URL); after != before {
		t.Errorf("a second bot with the same email was created")
	}
}
