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

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// kind is how a parameter is encoded, which decides the malformed values a case sends.
type kind int

const (
	kString   kind = iota // taken verbatim
	kInt                  // JSON integer
	kBool                 // JSON boolean
	kEnum                 // string from a fixed set
	kStrList              // JSON list of strings
	kJSONList             // JSON list whose elements the handler checks itself
	kJSONDict             // JSON object
)

// param is one parameter of a route, listed in the order the handler reads it (the first
// error wins, so the first missing required parameter is the one reported).
type param struct {
	name     string
	kind     kind
	required bool
	// oversizeFails says a 1 MiB value must be refused; otherwise the value is one the real
	// server accepts (a long message is truncated), and success is tolerated.
	oversizeFails bool
}

// routeSpec is a route's entry in the table.
type routeSpec struct {
	method  string
	pattern string // as chi.Walk reports it
	path    string // concrete path; "{id}" stands for the path ID
	id      string // a valid path ID ("" when the route has none)
	// notFound is the msg for a well-formed path ID that names nothing (0, 99999999999999999999),
	// sent with notFoundStatus (400 when 0).
	notFound       string
	notFoundStatus int
	role           string   // role to authenticate as; "" for routes without credentials
	params         []param  // in the order the handler reads them
	valid          []string // name/value pairs of a request that succeeds
	extra          []badCase
	// upload is the file field of a route that takes one uploaded file (POST /user_uploads):
	// its requests are multipart/form-data carrying the values and one file in that field.
	upload string
	// raw marks a route outside the API whose success is bytes or a redirect, not an
	// envelope (files, avatars, the realm icon); its errors are envelopes all the same.
	raw bool
	// unknowable says why a route has no valid request the table can write (a temporary URL's
	// random token); its own test covers success, and the table's request must fail.
	unknowable string
}

// want is what a bad request must get besides a well-formed error envelope.
type want struct {
	status   int    // 0: any 4xx
	code     string // "": any non-empty code
	msg      string // "": any non-empty msg
	tolerant bool   // a success envelope is acceptable too (no state check then)
}

type badCase struct {
	name string
	req  request
	want want
}

const (
	huge      = "99999999999999999999"
	setupChan = "general"
	// Channel names the cases might create by mistake; the state check looks them up.
	newChan = "badinput-new"
)

var (
	oneMiB  = strings.Repeat("a", 1<<20)
	badUTF8 = "a\xffb\xfe"
	probes  = []string{newChan, "badinput-guest", "badinput-x", "badinput-desc", strings.Repeat("c", 61)}
)

func bad(status int, code, msg string) want { return want{status: status, code: code, msg: msg} }
func badRequest(msg string) want            { return bad(400, "BAD_REQUEST", msg) }
func missing(name string) want {
	return bad(400, "REQUEST_VARIABLE_MISSING", "Missing '"+name+"' argument")
}

var (
	principalAdmin = bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	notFound404    = want{status: 404}
)

// authOf is basicAuth for package-level tables.
func authOf(role string) string {
	u, ok := defaultFixture.UserByRole(role)
	if !ok {
		panic("no user of role " + role)
	}
	return basicHeader(u.Email, u.APIKey)
}

var (
	ownerAuth  = authOf(fixtures.RoleOwner)
	adminAuth  = authOf(fixtures.RoleAdmin)
	modAuth    = authOf(fixtures.RoleModerator)
	memberAuth = authOf(fixtures.RoleMember)
	guestAuth  = authOf(fixtures.RoleGuest)
	botAuth    = authOf(fixtures.RoleBot)
)

// build returns the route's request with the given parameters: in the query string for GET,
// in a urlencoded body otherwise, authenticated as the route's role.
func (rs routeSpec) build(vals url.Values) request {
	req := request{method: rs.method, path: rs.pathWith(rs.id)}
	if rs.role != "" {
		req.auth = authOf(rs.role)
	}
	enc := vals.Encode()
	switch {
	case rs.method == http.MethodGet:
		req.query = enc
	case rs.upload != "":
		req.body, req.contentType = integMultipart(vals, rs.upload, "badinput.txt", []byte("a file of the bad-input test\n"))
	default:
		req.body, req.contentType = []byte(enc), formType
	}
	return req
}

func (rs routeSpec) pathWith(id string) string { return strings.Replace(rs.path, "{id}", id, 1) }

func (rs routeSpec) validValues() url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(rs.valid); i += 2 {
		v.Set(rs.valid[i], rs.valid[i+1])
	}
	return v
}

// with returns the valid request with name set to value.
func (rs routeSpec) with(name, value string) request {
	v := rs.validValues()
	v.Set(name, value)
	return rs.build(v)
}

// without returns the valid request without name.
func (rs routeSpec) without(name string) request {
	v := rs.validValues()
	v.Del(name)
	return rs.build(v)
}

// as returns the valid request (with name=value pairs changed) sent with other credentials.
func (rs routeSpec) as(auth string, kv ...string) request {
	v := rs.validValues()
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	req := rs.build(v)
	req.auth = auth
	return req
}

// valuesFor lists the malformed values of a kind and what each must get.
func valuesFor(p param) []struct {
	label, value string
	want         want
} {
	n := p.name
	type vw = struct {
		label, value string
		want         want
	}
	notJSON := badRequest(n + " is not valid JSON")
	switch p.kind {
	case kInt:
		return []vw{
			{"not JSON", "abc", notJSON},
			{"truncated JSON", "[1,", notJSON},
			{"empty", "", notJSON},
			{"JSON string", `"5"`, badRequest(n + " is not an integer")},
			{"float", "1.5", badRequest(n + " is not an integer")},
			{"exponent", "1e3", badRequest(n + " is not an integer")},
			{"bool", "true", badRequest(n + " is not an integer")},
			{"null", "null", badRequest(n + " is not an integer")},
			{"list", "[1]", badRequest(n + " is not an integer")},
			{"trailing data", "1 2", notJSON},
			{"overflow", huge, badRequest(n + " is too large")},
			{"negative overflow", "-" + huge, badRequest(n + " is too small")},
		}
	case kBool:
		return []vw{
			{"number", "1", badRequest(n + " is not a boolean")},
			{"yes", "yes", notJSON},
			{"JSON string", `"true"`, badRequest(n + " is not a boolean")},
			{"null", "null", badRequest(n + " is not a boolean")},
			{"capitalised", "True", notJSON},
			{"empty", "", notJSON},
			{"truncated JSON", "[1,", notJSON},
		}
	case kEnum:
		return []vw{
			{"unknown value", "bogus", badRequest("Invalid " + n)},
			{"empty", "", badRequest("Invalid " + n)},
			{"upper case", "CHANNEL", badRequest("Invalid " + n)},
			{"invalid UTF-8", badUTF8, want{status: 400, code: "BAD_REQUEST"}},
			{"1 MiB", oneMiB, badRequest("Invalid " + n)},
		}
	case kStrList:
		return []vw{
			{"not JSON", "abc", notJSON},
			{"truncated JSON", "[1,", notJSON},
			{"object", `{"a":"b"}`, badRequest(n + " is not a list")},
			{"string", `"realm"`, badRequest(n + " is not a list")},
			{"number", "5", badRequest(n + " is not a list")},
			{"list of numbers", "[1]", badRequest(n + "[0] is not a string")},
			{"list of lists", `[["a"]]`, badRequest(n + "[0] is not a string")},
		}
	case kJSONList:
		return []vw{
			{"not JSON", "abc", notJSON},
			{"truncated JSON", "[1,", notJSON},
			{"empty", "", notJSON},
			{"object", `{"a":1}`, badRequest(n + " is not a list")},
			{"string", `"x"`, badRequest(n + " is not a list")},
			{"number", "5", badRequest(n + " is not a list")},
		}
	case kJSONDict:
		return []vw{
			{"not JSON", "abc", notJSON},
			{"truncated JSON", "[1,", notJSON},
			{"list", "[1]", badRequest(n + " is not a dict")},
			{"string", `"x"`, badRequest(n + " is not a dict")},
		}
	default: // kString
		over := want{tolerant: true}
		if p.oversizeFails {
			over = want{}
		}
		return []vw{
			{"invalid UTF-8", badUTF8, want{status: 400, code: "BAD_REQUEST"}},
			{"1 MiB", oneMiB, over},
		}
	}
}

// cases generates the bad requests of a route and appends its own.
func cases(rs routeSpec, methods map[string][]string) []badCase {
	var out []badCase
	add := func(name string, req request, w want) { out = append(out, badCase{name, req, w}) }
	valid := rs.validValues()

	// Credentials: checked before anything else, so the request is otherwise valid.
	if rs.role != "" {
		unauth := bad(401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
		owner, _ := defaultFixture.UserByRole(fixtures.RoleOwner)
		member, _ := defaultFixture.UserByRole(fixtures.RoleMember)
		add("auth: none", rs.as(""), unauth)
		noParams := rs.build(url.Values{})
		noParams.auth = ""
		add("auth: none, no parameters", noParams, unauth)
		add("auth: malformed key", rs.as(basicHeader(owner.Email, "short")), bad(401, "UNAUTHORIZED", "Malformed API key"))
		add("auth: unknown key", rs.as(basicHeader(owner.Email, strings.Repeat("Z", 32))), bad(401, "UNAUTHORIZED", "Invalid API key"))
		add("auth: another user's key", rs.as(basicHeader(owner.Email, member.APIKey)), bad(401, "UNAUTHORIZED", "Invalid API key"))
		add("auth: key with invalid UTF-8", rs.as(basicHeader(owner.Email, badUTF8)), bad(401, "UNAUTHORIZED", "Malformed API key"))
		add("auth: no colon", rs.as("Basic "+"b3duZXI="), bad(401, "UNAUTHORIZED", "Invalid authorization header for basic auth"))
		add("auth: not base64", rs.as("Basic !!!"), bad(401, "UNAUTHORIZED", "Invalid authorization header for basic auth"))
		add("auth: bearer scheme", rs.as("Bearer "+owner.APIKey), badRequest("This endpoint requires HTTP basic authentication."))
		if rs.id != "" {
			r := rs.as("")
			r.path = rs.pathWith("abc")
			add("auth: none, non-numeric id", r, unauth)
		}
	}

	// Wrong methods on the route's path.
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions, "PROPFIND"} {
		if slices.Contains(methods[rs.pattern], m) {
			continue
		}
		r := rs.build(valid)
		r.method = m
		add("method "+m, r, want{status: 405})
		if rs.role != "" {
			r.auth = ""
			add("method "+m+", no credentials", r, want{status: 405}) // before authentication
		}
	}

	// Malformed query strings, on every method.
	for _, q := range []string{"x=%zz", "a=1;b=2", "%"} {
		r := rs.build(valid)
		if r.query != "" {
			r.query += "&" + q
		} else {
			r.query = q
		}
		add("query "+q, r, want{status: 400, code: "BAD_REQUEST"})
	}

	// Malformed bodies, where the method has one.
	if rs.method != http.MethodGet {
		r := rs.build(valid)
		r.body = append(r.body, "&x=%zz"...)
		if rs.upload == "" { // a multipart body ends at its last boundary; what follows is ignored
			add("form body with bad escape", r, want{status: 400, code: "BAD_REQUEST"})
		}
		r = rs.build(valid)
		r.body, r.contentType = []byte("garbage"), "multipart/form-data"
		add("multipart without boundary", r, want{status: 400, code: "BAD_REQUEST"})
		r = rs.build(valid)
		r.body, r.contentType = []byte("garbage"), "multipart/form-data; boundary=XYZ"
		add("multipart with bad body", r, want{status: 400, code: "BAD_REQUEST"})
	}

	// Requests that carry none of the parameters, when some are required.
	var firstRequired string
	for _, p := range rs.params {
		if p.required {
			firstRequired = p.name
			break
		}
	}
	if firstRequired != "" {
		add("no parameters", rs.build(url.Values{}), missing(firstRequired))
		if rs.method != http.MethodGet {
			r := rs.build(valid)
			r.contentType = "text/plain"
			add("form data as text/plain", r, missing(firstRequired))
			r = rs.build(valid)
			r.contentType = ""
			add("form data without Content-Type", r, missing(firstRequired))
			if !strings.HasPrefix(rs.path, "/_fake/") { // the control API takes JSON bodies too
				r = rs.build(url.Values{})
				r.contentType = "application/json"
				r.body = []byte(canonical(flatten(valid)))
				add("JSON object body", r, missing(firstRequired))
			}
			r = rs.build(url.Values{})
			r.body = nil
			add("empty body", r, missing(firstRequired))
		}
	}

	// Each parameter missing and malformed.
	for _, p := range rs.params {
		if p.required {
			add("missing "+p.name, rs.without(p.name), missing(p.name))
		}
		for _, v := range valuesFor(p) {
			add(p.name+": "+v.label, rs.with(p.name, v.value), v.want)
		}
	}

	// Path IDs: non-numeric ones match no route; well-formed ones that name nothing are
	// the route's own not-found error.
	if rs.id != "" {
		for _, id := range []string{"abc", "-1", "1.5", "%FF", "1e3", "+1", "0x1"} {
			r := rs.build(valid)
			r.path = rs.pathWith(id)
			add("path id "+id, r, notFound404)
		}
		for _, id := range []string{"0", huge, "123456"} {
			r := rs.build(valid)
			r.path = rs.pathWith(id)
			w := badRequest(rs.notFound)
			if rs.notFoundStatus != 0 {
				w.status = rs.notFoundStatus
			}
			add("path id "+id, r, w)
		}
	}

	return append(out, rs.extra...)
}

func flatten(v url.Values) map[string]string {
	out := map[string]string{}
	for k := range v {
		out[k] = v.Get(k)
	}
	return out
}

// linkifierParams are the parameters of adding and of editing a linkifier.
var linkifierParams = []param{
	{name: "pattern", required: true, oversizeFails: true},
	{name: "url_template", required: true, oversizeFails: true},
	{name: "example_input", oversizeFails: true},
	{name: "reverse_template", oversizeFails: true},
	{name: "alternative_url_templates", kind: kStrList},
}

// routeTable is every route of the fake; TestRouteTableCoversRouter keeps it complete.
func routeTable() []routeSpec {
	var table []routeSpec
	add := func(rs routeSpec) { table = append(table, rs) }

	// --- /api/v1, without credentials ---
	add(routeSpec{method: "GET", pattern: "/api/v1/server_settings", path: "/api/v1/server_settings"})

	fetch := routeSpec{method: "POST", pattern: "/api/v1/fetch_api_key", path: "/api/v1/fetch_api_key",
		params: []param{{name: "username", required: true, oversizeFails: true}, {name: "password", required: true, oversizeFails: true}},
		valid:  []string{"username", "owner@chat.example.test", "password", "owner-password"}}
	fetch.extra = []badCase{
		{"wrong password", fetch.with("password", "nope"), bad(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")},
		{"unknown user", fetch.with("username", "nobody@chat.example.test"), bad(401, "AUTHENTICATION_FAILED", "")},
		{"username not an email", fetch.with("username", "owner"), badRequest("Enter a valid email address.")},
		{"bot login", fetch.with("username", "helper-bot@chat.example.test"), bad(401, "AUTHENTICATION_FAILED", "")},
		{"empty password", fetch.with("password", ""), bad(401, "AUTHENTICATION_FAILED", "")},
	}
	add(fetch)

	// --- documented operations ---
	getMsg := routeSpec{method: "GET", pattern: "/api/v1/messages/{message_id:[0-9]+}", path: "/api/v1/messages/{id}", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner,
		params: []param{{name: "apply_markdown", kind: kBool}, {name: "allow_empty_topic_name", kind: kBool}}}
	add(getMsg)

	topics := routeSpec{method: "GET", pattern: "/api/v1/users/me/{stream_id:[0-9]+}/topics", path: "/api/v1/users/me/{id}/topics", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner,
		params: []param{{name: "allow_empty_topic_name", kind: kBool}}}
	add(topics)

	pg := routeSpec{method: "POST", pattern: "/api/v1/realm/playgrounds", path: "/api/v1/realm/playgrounds", role: fixtures.RoleOwner,
		params: []param{
			{name: "name", required: true},
			{name: "pygments_language", required: true, oversizeFails: true},
			{name: "url_template", required: true, oversizeFails: true},
		},
		valid: []string{"name", "Go Playground", "pygments_language", "Go", "url_template", "https://go.example/play?code={code}"}}
	pg.extra = []badCase{
		{"member", pg.as(memberAuth), principalAdmin},
		{"moderator", pg.as(modAuth), principalAdmin},
		{"guest, no parameters (role checked first)", request{method: "POST", path: pg.path, auth: guestAuth}, principalAdmin},
		{"bot", pg.as(botAuth), principalAdmin},
		{"blank name", pg.with("name", "   "), badRequest("This field cannot be blank.")},
		{"blank language", pg.with("pygments_language", ""), badRequest("This field cannot be blank.")},
		{"language too long", pg.with("pygments_language", strings.Repeat("x", 41)), badRequest("pygments_language is too long (limit: 40 characters)")},
		{"language with bad characters", pg.with("pygments_language", "C&&<script>"), badRequest("Invalid characters in pygments language")},
		{"template without code", pg.with("url_template", "https://go.example/play"), badRequest(`Missing the required variable "code" in the URL template`)},
		{"template with two variables", pg.with("url_template", "https://go.example/{code}/{other}"), badRequest(`"code" should be the only variable present in the URL template`)},
		{"template not RFC 6570", pg.with("url_template", "https://go.example/{code"), badRequest("Invalid URL template.")},
		{"empty template", pg.with("url_template", ""), badRequest("Invalid URL template.")},
		{"duplicate of an existing playground", pg.as(ownerAuth, "name", "Setup Playground", "pygments_language", "Python"), badRequest("Realm playground with this Realm, Pygments language and Name already exists.")},
	}
	add(pg)

	add(routeSpec{method: "GET", pattern: "/api/v1/realm/linkifiers", path: "/api/v1/realm/linkifiers", role: fixtures.RoleMember})

	users := routeSpec{method: "POST", pattern: "/api/v1/users", path: "/api/v1/users", role: fixtures.RoleOwner,
		params: []param{
			{name: "email", required: true, oversizeFails: true},
			{name: "password", required: true},
			{name: "full_name", required: true, oversizeFails: true},
		},
		valid: []string{"email", "newuser@chat.example.test", "password", "new-user-password", "full_name", "New User"}}
	users.extra = []badCase{
		{"member", users.as(memberAuth), principalAdmin},
		{"member, no parameters (role checked first)", request{method: "POST", path: users.path, auth: memberAuth}, principalAdmin},
		{"administrator without can_create_users", users.as(adminAuth), badRequest("User not authorized to create users")},
		{"email in use", users.with("email", "member@chat.example.test"), badRequest("Email 'member@chat.example.test' already in use")},
		{"email in use, other case", users.with("email", "MEMBER@chat.example.test"), want{status: 400, code: "BAD_REQUEST"}},
		{"email not an address", users.with("email", "not-an-email"), badRequest("Invalid email 'not-an-email'")},
		{"email with plus", users.with("email", "new+tag@chat.example.test"), badRequest("Email addresses containing + are not allowed.")},
		// A 1 MiB local part: the real server's email validator refuses addresses over 320 characters.
		{"email 1 MiB long", users.with("email", oneMiB+"@chat.example.test"), want{status: 400, code: "BAD_REQUEST"}},
		{"weak password", users.with("password", "abc"), want{status: 400, code: "BAD_REQUEST"}},
		{"blank name", users.with("full_name", "  "), badRequest("Name too short!")},
		{"name with bad characters", users.with("full_name", "Bad*Name"), badRequest("Invalid characters in name!")},
		{"name too long", users.with("full_name", strings.Repeat("n", 61)), badRequest("Name too long!")},
	}
	add(users)

	presence := routeSpec{method: "POST", pattern: "/api/v1/users/me/presence", path: "/api/v1/users/me/presence", role: fixtures.RoleMember,
		params: []param{
			{name: "status", required: true, oversizeFails: true},
			{name: "ping_only", kind: kBool}, {name: "new_user_input", kind: kBool}, {name: "slim_presence", kind: kBool},
			{name: "last_update_id", kind: kInt}, {name: "history_limit_days", kind: kInt},
		},
		valid: []string{"status", "active"}}
	presence.extra = []badCase{
		{"unknown status", presence.with("status", "away"), badRequest("Invalid status: away")},
		{"negative history_limit_days", presence.with("history_limit_days", "-1"), badRequest("history_limit_days is too small")},
		{"bot", presence.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
	}
	add(presence)

	deleteTopic := routeSpec{method: "POST", pattern: "/api/v1/streams/{stream_id:[0-9]+}/delete_topic", path: "/api/v1/streams/{id}/delete_topic", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner,
		params: []param{{name: "topic_name", required: true}},
		valid:  []string{"topic_name", "a topic without messages"}}
	deleteTopic.extra = []badCase{
		{"member", deleteTopic.as(memberAuth), principalAdmin},
		{"moderator, no parameters (role checked first)", request{method: "POST", path: "/api/v1/streams/1/delete_topic", auth: modAuth}, principalAdmin},
	}
	add(deleteTopic)

	archive := routeSpec{method: "DELETE", pattern: "/api/v1/streams/{stream_id:[0-9]+}", path: "/api/v1/streams/{id}", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner}
	archive.extra = []badCase{
		{"member of the channel", archive.as(memberAuth), badRequest("You do not have permission to administer this channel.")},
		{"moderator", archive.as(modAuth), badRequest("You do not have permission to administer this channel.")},
		{"guest of the channel", archive.as(guestAuth), badRequest("You do not have permission to administer this channel.")},
		{"bot", archive.as(botAuth), badRequest("You do not have permission to administer this channel.")},
	}
	add(archive)

	subProp := routeSpec{method: "PATCH", pattern: "/api/v1/users/me/subscriptions/{stream_id:[0-9]+}", path: "/api/v1/users/me/subscriptions/{id}", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner,
		params: []param{{name: "property", required: true, oversizeFails: true}, {name: "value", required: true, oversizeFails: true}},
		valid:  []string{"property", "pin_to_top", "value", "true"}}
	subProp.extra = []badCase{
		{"unknown property", subProp.with("property", "bogus"), badRequest("Unknown subscription property: bogus")},
		{"boolean property with a string", subProp.with("value", "maybe"), badRequest("pin_to_top is not a boolean")},
		{"color that is not hex", subProp.as(ownerAuth, "property", "color", "value", "red"), badRequest("color is not a valid hex color")},
		{"color given a boolean", subProp.as(ownerAuth, "property", "color", "value", "true"), badRequest("color is not a valid hex color")},
	}
	add(subProp)

	add(routeSpec{method: "GET", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions", role: fixtures.RoleMember,
		params: []param{{name: "include_subscribers", kind: kBool}}})

	delMsg := routeSpec{method: "DELETE", pattern: "/api/v1/messages/{message_id:[0-9]+}", path: "/api/v1/messages/{id}", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner}
	delMsg.extra = []badCase{
		{"member deleting another user's message", delMsg.as(memberAuth), badRequest("You don't have permission to delete this message")},
	}
	add(delMsg)

	realmPatch := routeSpec{method: "PATCH", pattern: "/api/v1/realm", path: "/api/v1/realm", role: fixtures.RoleOwner,
		params: []param{
			{name: "allow_message_editing", kind: kBool}, {name: "message_content_edit_limit_seconds", kind: kInt},
			{name: "move_messages_within_stream_limit_seconds", kind: kInt}, {name: "move_messages_between_streams_limit_seconds", kind: kInt},
		},
		valid: []string{"allow_message_editing", "true"}}
	realmPatch.extra = []badCase{
		{"member", realmPatch.as(memberAuth), principalAdmin},
		{"zero limit", realmPatch.with("message_content_edit_limit_seconds", "0"), badRequest("message_content_edit_limit_seconds is too small")},
		{"limit beyond 32 bits", realmPatch.with("message_content_edit_limit_seconds", "2147483648"), badRequest("message_content_edit_limit_seconds is too large")},
		{"limit as another word", realmPatch.with("move_messages_within_stream_limit_seconds", `"forever"`), badRequest("move_messages_within_stream_limit_seconds is not an integer")},
	}
	add(realmPatch)

	// --- supporting operations ---
	reg := routeSpec{method: "POST", pattern: "/api/v1/register", path: "/api/v1/register", role: fixtures.RoleMember,
		params: []param{
			{name: "fetch_event_types", kind: kStrList},
			{name: "event_types", kind: kStrList},
			{name: "apply_markdown", kind: kBool},
			{name: "client_gravatar", kind: kBool},
			{name: "slim_presence", kind: kBool},
			{name: "all_public_streams", kind: kBool},
			{name: "include_subscribers", kind: kBool},
			{name: "narrow", kind: kJSONList},
			{name: "client_capabilities", kind: kJSONDict},
		},
		valid: []string{"fetch_event_types", `["realm"]`}}
	add(reg)

	// The event routes need a queue of the route's user: the first stateOf after setUp
	// registers the owner's first queue of the current generation, which the runner puts in
	// place of ownerQueue (see withOwnerQueue).
	badQueue := func(id string) want { return bad(400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+id) }
	evs := routeSpec{method: "GET", pattern: "/api/v1/events", path: "/api/v1/events", role: fixtures.RoleOwner,
		params: []param{
			// Neither is required as such: without queue_id, dont_block=true makes a new queue.
			{name: "queue_id", oversizeFails: true},
			{name: "last_event_id", kind: kInt},
			{name: "dont_block", kind: kBool},
			{name: "event_types", kind: kStrList},
		},
		valid: []string{"queue_id", ownerQueue, "last_event_id", "-1", "dont_block", "true"}}
	evs.extra = []badCase{
		{"no parameters", evs.build(url.Values{}), badRequest("Missing 'queue_id' argument")},
		{"no queue_id, blocking", evs.build(url.Values{"last_event_id": {"-1"}}), badRequest("Missing 'queue_id' argument")},
		{"no queue_id, dont_block false", evs.build(url.Values{"dont_block": {"false"}}), badRequest("Missing 'queue_id' argument")},
		{"no last_event_id", evs.without("last_event_id"), badRequest("Missing 'last_event_id' argument")},
		{"no last_event_id, blocking", evs.build(url.Values{"queue_id": {ownerQueue}}), badRequest("Missing 'last_event_id' argument")},
		{"unknown queue", evs.with("queue_id", "1:999999"), badQueue("1:999999")},
		{"empty queue_id", evs.with("queue_id", ""), badQueue("")},
		{"unknown queue, blocking", evs.as(ownerAuth, "queue_id", "bogus", "dont_block", "false"), badQueue("bogus")},
		{"another user's queue", evs.as(memberAuth), badQueue(ownerQueue)},
		{"another user's queue, blocking", evs.as(guestAuth, "dont_block", "false"), badQueue(ownerQueue)},
		{"last_event_id ahead of the queue", evs.with("last_event_id", "5"), badRequest("Event 5 was not in this queue")},
		{"last_event_id behind -1", evs.with("last_event_id", "-2"), badRequest("An event newer than -2 has already been pruned!")},
		{"queue_id in the body of a GET", request{method: "GET", path: evs.path, auth: ownerAuth, body: formBody("queue_id", ownerQueue, "last_event_id", "-1"), contentType: formType}, badRequest("Missing 'queue_id' argument")},
	}
	add(evs)

	delEvs := routeSpec{method: "DELETE", pattern: "/api/v1/events", path: "/api/v1/events", role: fixtures.RoleOwner,
		params: []param{{name: "queue_id", required: true, oversizeFails: true}},
		valid:  []string{"queue_id", ownerQueue}}
	delEvs.extra = []badCase{
		{"unknown queue", delEvs.with("queue_id", "1:999999"), badQueue("1:999999")},
		{"empty queue_id", delEvs.with("queue_id", ""), badQueue("")},
		{"another user's queue", delEvs.as(memberAuth), badQueue(ownerQueue)},
		{"bot deleting its owner's queue", delEvs.as(botAuth), badQueue(ownerQueue)},
	}
	add(delEvs)

	send := routeSpec{method: "POST", pattern: "/api/v1/messages", path: "/api/v1/messages", role: fixtures.RoleOwner,
		params: []param{
			{name: "type", kind: kEnum, required: true},
			{name: "to", required: true, oversizeFails: true},
			{name: "topic"},
			{name: "content", required: true},
			{name: "read_by_sender", kind: kBool},
		},
		valid: []string{"type", "channel", "to", setupChan, "topic", "badinput", "content", "hello"}}
	send.extra = []badCase{
		{"topic and subject", send.with("subject", "other"), bad(400, "REQUEST_CONFUSING_VAR", "Can't decide between 'topic' and 'subject' arguments")},
		{"subject invalid UTF-8", func() request {
			v := send.validValues()
			v.Del("topic")
			v.Set("subject", badUTF8)
			return send.build(v)
		}(), want{status: 400, code: "BAD_REQUEST"}},
		{"channel message without topic", send.without("topic"), badRequest("Missing topic")},
		{"empty content", send.with("content", ""), badRequest("Message must not be empty")},
		{"blank content", send.with("content", " \n\t "), badRequest("Message must not be empty")},
		{"topic with control character", send.with("topic", "a\x00b"), want{status: 400, code: "BAD_REQUEST"}},
		{"unknown channel name", send.with("to", "badinput-nowhere"), want{status: 400, code: "STREAM_DOES_NOT_EXIST"}},
		{"unknown channel id", send.with("to", "999"), want{status: 400, code: "STREAM_DOES_NOT_EXIST"}},
		{"channel id overflow", send.with("to", huge), want{status: 400}},
		{"channel id negative", send.with("to", "-1"), want{status: 400}},
		{"channel as a list of two names", send.with("to", `["general","other"]`), want{status: 400}},
		{"channel as an object", send.with("to", `{"name":"general"}`), want{status: 400}},
		{"guest to an unsubscribed channel", send.as(guestAuth, "to", "badinput-nowhere"), want{status: 400}},
		{"direct: empty list", send.as(ownerAuth, "type", "direct", "to", "[]"), badRequest("Message must have recipients")},
		{"direct: unknown user id", send.as(ownerAuth, "type", "direct", "to", "[999]"), badRequest("Invalid user ID 999")},
		{"direct: negative user id", send.as(ownerAuth, "type", "direct", "to", "[-1]"), want{status: 400}},
		{"direct: float user id", send.as(ownerAuth, "type", "direct", "to", "[1.5]"), want{status: 400}},
		{"direct: huge user id", send.as(ownerAuth, "type", "direct", "to", "["+huge+"]"), want{status: 400}},
		{"direct: bool recipient", send.as(ownerAuth, "type", "direct", "to", "[true]"), want{status: 400}},
		{"direct: object recipient", send.as(ownerAuth, "type", "direct", "to", `[{"id":4}]`), want{status: 400}},
		{"direct: unknown email", send.as(ownerAuth, "type", "direct", "to", `["nobody@chat.example.test"]`), badRequest("Invalid email 'nobody@chat.example.test'")},
		{"direct: truncated JSON", send.as(ownerAuth, "type", "direct", "to", "[4,"), want{status: 400}},
		{"direct: object", send.as(ownerAuth, "type", "direct", "to", `{"a":4}`), want{status: 400}},
		{"direct: 1 MiB", send.as(ownerAuth, "type", "direct", "to", oneMiB), want{status: 400}},
	}
	add(send)

	sub := routeSpec{method: "POST", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions", role: fixtures.RoleOwner,
		params: []param{
			{name: "subscriptions", kind: kJSONList, required: true},
			{name: "invite_only", kind: kBool},
			{name: "history_public_to_subscribers", kind: kBool},
			{name: "principals", kind: kJSONList},
		},
		valid: []string{"subscriptions", `[{"name":"` + newChan + `","description":"made by the test"}]`}}
	subs := func(s string) request { return sub.with("subscriptions", s) }
	sub.extra = []badCase{
		{"subscriptions: empty list", subs("[]"), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: list of numbers", subs("[1]"), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: list of strings", subs(`["` + newChan + `"]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: no name", subs(`[{"description":"x"}]`), badRequest(`subscriptions[0]["name"] is not a string`)},
		{"subscriptions: numeric name", subs(`[{"name":5}]`), badRequest(`subscriptions[0]["name"] is not a string`)},
		{"subscriptions: second entry bad", subs(`[{"name":"` + newChan + `"},{"name":null}]`), badRequest(`subscriptions[1]["name"] is not a string`)},
		{"subscriptions: numeric description", subs(`[{"name":"badinput-desc","description":5}]`), badRequest(`subscriptions[0]["description"] is not a string`)},
		{"subscriptions: empty name", subs(`[{"name":""}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: blank name", subs(`[{"name":"   "}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: name too long", subs(`[{"name":"` + strings.Repeat("c", 61) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: 1 MiB name", subs(`[{"name":"` + oneMiB + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: control character", subs(`[{"name":"badinput-x\u0007"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: description too long", subs(`[{"name":"badinput-desc","description":"` + strings.Repeat("d", 1025) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: good then bad", subs(`[{"name":"` + newChan + `"},{"name":"` + strings.Repeat("c", 61) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: unknown email", sub.with("principals", `["nobody@chat.example.test"]`), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: unknown id", sub.with("principals", "[999]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: negative id", sub.with("principals", "[-1]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: huge id", sub.with("principals", "["+huge+"]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: float id", sub.with("principals", "[1.5]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: bool", sub.with("principals", "[true]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: nested list", sub.with("principals", "[[4]]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: good then unknown", sub.with("principals", "[4,999]"), want{status: 400, code: "BAD_REQUEST"}},
		{"guest creating a channel", sub.as(guestAuth, "subscriptions", `[{"name":"badinput-guest"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"guest subscribing others", sub.as(guestAuth, "subscriptions", `[{"name":"general"}]`, "principals", "[4]"), want{status: 400, code: "BAD_REQUEST"}},
	}
	add(sub)

	sid := routeSpec{method: "GET", pattern: "/api/v1/get_stream_id", path: "/api/v1/get_stream_id", role: fixtures.RoleMember,
		params: []param{{name: "stream", required: true, oversizeFails: true}},
		valid:  []string{"stream", setupChan}}
	sid.extra = []badCase{
		{"unknown channel", sid.with("stream", "badinput-nowhere"), badRequest("Invalid channel name 'badinput-nowhere'")},
		{"empty name", sid.with("stream", ""), want{status: 400}},
		{"stream in the body of a GET", request{method: "GET", path: sid.path, auth: memberAuth, body: formBody("stream", setupChan), contentType: formType}, missing("stream")},
	}
	add(sid)

	add(routeSpec{method: "GET", pattern: "/api/v1/users", path: "/api/v1/users", role: fixtures.RoleGuest,
		params: []param{{name: "client_gravatar", kind: kBool}, {name: "include_custom_profile_fields", kind: kBool}}})
	add(routeSpec{method: "GET", pattern: "/api/v1/users/me", path: "/api/v1/users/me", role: fixtures.RoleBot})
	add(routeSpec{method: "GET", pattern: "/api/v1/users/{user_id:[0-9]+}", path: "/api/v1/users/{id}", id: "4",
		notFound: "No such user", role: fixtures.RoleMember,
		params: []param{{name: "client_gravatar", kind: kBool}, {name: "include_custom_profile_fields", kind: kBool}}})

	upd := routeSpec{method: "PATCH", pattern: "/api/v1/users/{user_id:[0-9]+}", path: "/api/v1/users/{id}", id: "4",
		notFound: "No such user", role: fixtures.RoleOwner,
		params: []param{{name: "full_name", oversizeFails: true}, {name: "role", kind: kInt}},
		valid:  []string{"full_name", "Renamed Member"}}
	upd.extra = []badCase{
		{"role negative", upd.with("role", "-1"), badRequest("Invalid role")},
		{"role zero", upd.with("role", "0"), badRequest("Invalid role")},
		{"role between values", upd.with("role", "250"), badRequest("Invalid role")},
		{"role bot-ish value", upd.with("role", "700"), badRequest("Invalid role")},
		{"role as name", upd.with("role", "owner"), badRequest("role is not valid JSON")},
		{"name with bad characters", upd.with("full_name", "Bad*Name"), badRequest("Invalid characters in name!")},
		{"name too long", upd.with("full_name", strings.Repeat("n", 61)), badRequest("Name too long!")},
		{"member changing a user", upd.as(memberAuth), badRequest("Insufficient permission")},
		{"guest changing a role", upd.as(guestAuth, "role", "100"), badRequest("Insufficient permission")},
		{"administrator making an owner", upd.as(adminAuth, "role", "100"), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"administrator demoting the owner", func() request { r := upd.as(adminAuth, "role", "400"); r.path = upd.pathWith("1"); return r }(), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"the only owner demoting themselves", func() request { r := upd.with("role", "400"); r.path = upd.pathWith("1"); return r }(), badRequest("The owner permission cannot be removed from the only organization owner.")},
		{"valid name, bad role (all or nothing)", upd.as(ownerAuth, "full_name", "Half Change", "role", "5"), badRequest("Invalid role")},
	}
	add(upd)

	bots := routeSpec{method: "POST", pattern: "/api/v1/bots", path: "/api/v1/bots", role: fixtures.RoleOwner,
		params: []param{
			{name: "full_name", required: true, oversizeFails: true},
			// A 1 MiB short name makes a 1 MiB email, which the real server's validator refuses.
			{name: "short_name", required: true, oversizeFails: true},
			{name: "bot_type", kind: kInt},
		},
		valid: []string{"full_name", "Bad Input Bot", "short_name", "badinput"}}
	bots.extra = []badCase{
		{"bot_type zero", bots.with("bot_type", "0"), badRequest("Invalid bot_type")},
		{"bot_type negative", bots.with("bot_type", "-1"), badRequest("Invalid bot_type")},
		{"bot_type unknown", bots.with("bot_type", "5"), badRequest("Invalid bot_type")},
		{"short name with bad characters", bots.with("short_name", "Bad Name!"), badRequest("Bad name or username")},
		{"empty short name", bots.with("short_name", ""), badRequest("Bad name or username")},
		{"short name in use", bots.with("short_name", "helper"), badRequest("Username already in use")},
		{"blank full name", bots.with("full_name", " "), badRequest("Name too short!")},
		{"bot creating a bot", bots.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
		{"bot, no parameters (checked first)", request{method: "POST", path: bots.path, auth: botAuth}, badRequest("This endpoint does not accept bot requests.")},
		{"guest creating a bot", bots.as(guestAuth), badRequest("Not allowed for guest users")},
	}
	add(bots)

	settings := routeSpec{method: "PATCH", pattern: "/api/v1/settings", path: "/api/v1/settings", role: fixtures.RoleOwner,
		params: []param{{name: "email_address_visibility", kind: kInt}},
		valid:  []string{"email_address_visibility", "4"}}
	settings.extra = []badCase{
		{"visibility zero", settings.with("email_address_visibility", "0"), badRequest("Invalid email_address_visibility")},
		{"visibility negative", settings.with("email_address_visibility", "-1"), badRequest("Invalid email_address_visibility")},
		{"visibility unknown", settings.with("email_address_visibility", "6"), badRequest("Invalid email_address_visibility")},
	}
	add(settings)

	lf := routeSpec{method: "POST", pattern: "/api/v1/realm/filters", path: "/api/v1/realm/filters", role: fixtures.RoleOwner,
		params: linkifierParams,
		valid:  []string{"pattern", "BI-(?P<id>[0-9]+)", "url_template", "https://bi.example/{id}"}}
	lf.extra = []badCase{
		{"member", lf.as(memberAuth), principalAdmin},
		{"moderator, no parameters (role checked first)", request{method: "POST", path: lf.path, auth: modAuth}, principalAdmin},
		{"pattern not a regex", lf.with("pattern", "BI-(?P<id>[0-9]+"), want{status: 400, code: "BAD_REQUEST"}},
		{"empty pattern", lf.with("pattern", ""), want{status: 400, code: "BAD_REQUEST"}},
		{"pattern with huge repetition", lf.with("pattern", "(?P<id>a{1001})"), want{status: 400, code: "BAD_REQUEST"}},
		{"template variable not in pattern", lf.with("url_template", "https://bi.example/{other}"), badRequest("Group 'other' in URL template is not present in linkifier pattern.")},
		{"pattern group not in template", lf.with("url_template", "https://bi.example/"), badRequest("Group 'id' in linkifier pattern is not present in URL template.")},
		{"template not RFC 6570", lf.with("url_template", "https://bi.example/{id"), badRequest("Invalid URL template.")},
		{"empty template", lf.with("url_template", ""), badRequest("Invalid URL template.")},
		{"example input does not match", lf.with("example_input", "nothing"), badRequest("Example input does not match the linkifier pattern.")},
		{"reverse template without example", lf.with("reverse_template", "BI-{id}"), badRequest("Reverse template requires an example input.")},
		{"alternative template invalid", lf.with("alternative_url_templates", `["https://bi.example/{id"]`), badRequest("Invalid URL template.")},
		{"duplicate pattern", lf.as(ownerAuth, "pattern", "SETUP-(?P<id>[0-9]+)", "url_template", "https://other.example/{id}"), badRequest("Linkifier with this Pattern and Realm already exists.")},
	}
	add(lf)

	rmLf := routeSpec{method: "DELETE", pattern: "/api/v1/realm/filters/{filter_id:[0-9]+}", path: "/api/v1/realm/filters/{id}", id: "1",
		notFound: "Linkifier not found.", role: fixtures.RoleOwner}
	rmLf.extra = []badCase{
		{"member", rmLf.as(memberAuth), principalAdmin},
		{"moderator", rmLf.as(modAuth), principalAdmin},
	}
	add(rmLf)

	rmPg := routeSpec{method: "DELETE", pattern: "/api/v1/realm/playgrounds/{playground_id:[0-9]+}", path: "/api/v1/realm/playgrounds/{id}", id: "1",
		notFound: "Invalid playground", role: fixtures.RoleOwner}
	rmPg.extra = []badCase{
		{"guest", rmPg.as(guestAuth), principalAdmin},
		{"bot", rmPg.as(botAuth), principalAdmin},
	}
	add(rmPg)

	// --- control API ---
	add(routeSpec{method: "GET", pattern: "/_fake/health", path: "/_fake/health"})
	add(routeSpec{method: "POST", pattern: "/_fake/reset", path: "/_fake/reset"})

	fix := routeSpec{method: "POST", pattern: "/_fake/fixture", path: "/_fake/fixture",
		params: []param{{name: "fixture", required: true, oversizeFails: true}},
		valid:  []string{"fixture", string(fixtures.DefaultYAML())}}
	withFixture := func(yaml string) request { return fix.with("fixture", yaml) }
	noOwner := strings.Replace(string(fixtures.DefaultYAML()), "role: owner", "role: member", 1)
	fix.extra = []badCase{
		{"empty fixture", withFixture(""), want{status: 400, code: "BAD_REQUEST"}},
		{"YAML syntax error", withFixture("realm: {name: [unclosed"), want{status: 400, code: "BAD_REQUEST"}},
		{"truncated JSON", withFixture(`{"realm": {"name": "x"`), want{status: 400, code: "BAD_REQUEST"}},
		{"unknown field", withFixture("realm:\n  bogus: 1\nusers:" + strings.SplitN(string(fixtures.DefaultYAML()), "users:", 2)[1]), want{status: 400, code: "BAD_REQUEST"}},
		{"users not a list", withFixture("users: 5"), want{status: 400, code: "BAD_REQUEST"}},
		{"a list at the top", withFixture("[1, 2]"), want{status: 400, code: "BAD_REQUEST"}},
		{"no owner", withFixture(noOwner), want{status: 400, code: "BAD_REQUEST"}},
		{"YAML sent as the body", request{method: "POST", path: fix.path, body: fixtures.DefaultYAML(), contentType: "application/yaml"}, missing("fixture")},
	}
	add(fix)

	add(routeSpec{method: "GET", pattern: "/_fake/clock", path: "/_fake/clock"})

	clk := routeSpec{method: "POST", pattern: "/_fake/clock", path: "/_fake/clock",
		params: []param{{name: "mode", kind: kEnum}, {name: "now", kind: kInt}, {name: "advance", kind: kInt}},
		valid:  []string{"advance", "60"}}
	clk.extra = []badCase{
		{"an unknown setting", clk.build(url.Values{"other": {"1"}}), want{status: 400, code: "BAD_REQUEST", msg: "Unknown setting: other"}},
		{"empty body", request{method: "POST", path: clk.path}, missing("advance")},
		{"now and advance", clk.with("now", "1767225600"), want{status: 400, code: "BAD_REQUEST"}},
		{"negative advance", clk.with("advance", "-1"), want{status: 400, code: "BAD_REQUEST"}},
		// time.Duration(advance) * time.Second overflows int64 nanoseconds beyond ~292 years.
		{"advance beyond time.Duration", clk.with("advance", "9223372036854775807"), want{status: 400, code: "BAD_REQUEST"}},
		{"advance of 300 years", clk.with("advance", "9467280000"), want{status: 400, code: "BAD_REQUEST"}},
		{"wall mode with a negative advance (all or nothing)", clk.as("", "mode", "wall", "advance", "-1"), badRequest("advance must not be negative; use now to go back")},
	}
	add(clk)

	add(routeSpec{method: "GET", pattern: "/_fake/config", path: "/_fake/config"})
	cfg := routeSpec{method: "PATCH", pattern: "/_fake/config", path: "/_fake/config",
		params: []param{
			{name: "push_configured", kind: kBool},
			{name: "event_poll_timeout_seconds", kind: kInt},
			{name: "event_queue_idle_seconds", kind: kInt},
			{name: "rate_limit_requests", kind: kInt},
			{name: "rate_limit_window_seconds", kind: kInt},
		},
		valid: []string{"push_configured", "true"}}
	cfg.extra = []badCase{
		{"poll timeout zero", cfg.with("event_poll_timeout_seconds", "0"), badRequest("event_poll_timeout_seconds must be between 1 and 300")},
		{"poll timeout over 300", cfg.with("event_poll_timeout_seconds", "301"), badRequest("event_poll_timeout_seconds must be between 1 and 300")},
		{"idle time zero", cfg.with("event_queue_idle_seconds", "0"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"idle time negative", cfg.with("event_queue_idle_seconds", "-600"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"idle time beyond the clock's range", cfg.with("event_queue_idle_seconds", "9223372036854775807"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"good setting, bad setting (all or nothing)", cfg.as("", "event_poll_timeout_seconds", "5", "event_queue_idle_seconds", "0"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"negative rate limit", cfg.with("rate_limit_requests", "-1"), badRequest("rate_limit_requests must be between 0 and 1000000")},
		{"rate limit window zero", cfg.as("", "rate_limit_requests", "5", "rate_limit_window_seconds", "0"), badRequest("rate_limit_window_seconds must be between 1 and 86400")},
	}
	add(cfg)

	add(routeSpec{method: "GET", pattern: "/_fake/", path: "/_fake/", raw: true})
	add(routeSpec{method: "GET", pattern: "/_fake/ui", path: "/_fake/ui", raw: true})
	inspect := routeSpec{method: "GET", pattern: "/_fake/inspect", path: "/_fake/inspect",
		params: []param{{name: "section", kind: kString, required: true}, {name: "offset", kind: kInt}, {name: "limit", kind: kInt}, {name: "status", kind: kInt}},
		valid:  []string{"section", "users", "limit", "10"}}
	inspect.extra = []badCase{
		{"an unknown section", inspect.with("section", "secrets"), badRequest("Invalid section")},
		{"limit zero", inspect.with("limit", "0"), badRequest("limit must be between 1 and 500")},
		{"a negative offset", inspect.as("", "section", "journal", "offset", "-1"), badRequest("offset must be between 0 and 2147483647")},
		{"a bad path pattern", inspect.as("", "section", "journal", "path", "/api/["), badRequest("Invalid path pattern: /api/[")},
		{"an unknown filter", inspect.as("", "section", "users", "colour", "red"), badRequest("Unknown setting: colour")},
	}
	add(inspect)
	add(routeSpec{method: "GET", pattern: "/_fake/faults", path: "/_fake/faults"})
	add(routeSpec{method: "DELETE", pattern: "/_fake/faults", path: "/_fake/faults"})
	fault := routeSpec{method: "POST", pattern: "/_fake/faults", path: "/_fake/faults",
		params: []param{{name: "status", kind: kInt}, {name: "delay_ms", kind: kInt}, {name: "drop", kind: kBool}, {name: "times", kind: kInt}},
		valid:  []string{"path", "/api/v1/nothing-here", "status", "503"}}
	fault.extra = []badCase{
		{"no effect", fault.build(url.Values{"path": {"/x"}}), badRequest("A fault needs a status, drop or delay_ms")},
		{"a success status", fault.as("", "status", "200"), badRequest("status must be an HTTP error status, 400 to 599")},
		{"drop and status", fault.as("", "status", "503", "drop", "true"), badRequest("Send either drop or status, not both")},
		{"a bad pattern", fault.as("", "status", "503", "path", "/api/["), badRequest("Invalid path pattern: /api/[")},
	}
	add(fault)
	add(routeSpec{method: "GET", pattern: "/_fake/journal", path: "/_fake/journal"})
	add(routeSpec{method: "DELETE", pattern: "/_fake/journal", path: "/_fake/journal"})

	vcall := routeSpec{method: "POST", pattern: "/_fake/vcall_token", path: "/_fake/vcall_token",
		params: []param{{name: "user_id", kind: kInt, required: true}, {name: "has_token", kind: kBool}},
		valid:  []string{"user_id", "4", "has_token", "true"}}
	vcall.extra = []badCase{
		{"unknown user", vcall.with("user_id", "999"), badRequest("No such user")},
		{"user id zero", vcall.with("user_id", "0"), badRequest("No such user")},
	}
	add(vcall)

	// Each area of the API keeps its route cases in its own file.
	messagingRouteCases(add)
	accountRouteCases(add)
	integrationRouteCases(add)
	clientRouteCases(add)
	personalRouteCases(add)
	routesBRouteCases(add)
	return table
}

// walkRoutes returns the methods the router serves, by pattern.
func walkRoutes(t testing.TB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := chi.Walk(fakeserver.New().Router(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		out[route] = append(out[route], method)
		return nil
	})
	if err != nil {
		t.Fatalf("walking the router: %v", err)
	}
	return out
}

// olderLevelRoutes are served only below the fixture's level, where the table's setup does not
// run (it needs later routes): TestOlderRoutesBadInput has their bad-input cases.
var olderLevelRoutes = map[string]bool{
	"POST /api/v1/message_edit_typing":                  true,
	"DELETE /api/v1/user_groups/{user_group_id:[0-9]+}": true,
}

// developmentRoutes answer only on a development server, which the table's fixture is not:
// TestDevFetchAPIKey has their bad-input cases.
var developmentRoutes = map[string]bool{"POST /api/v1/dev_fetch_api_key": true}

func TestRouteTableCoversRouter(t *testing.T) {
	walked := walkRoutes(t)
	inTable := map[string]bool{}
	for _, rs := range routeTable() {
		key := rs.method + " " + rs.pattern
		if inTable[key] {
			t.Errorf("route table lists %s twice", key)
		}
		inTable[key] = true
	}
	var routes []string
	for pattern, methods := range walked {
		for _, m := range methods {
			routes = append(routes, m+" "+pattern)
		}
	}
	sort.Strings(routes)
	for _, key := range routes {
		if olderLevelRoutes[key] || developmentRoutes[key] {
			continue
		}
		if !inTable[key] {
			t.Errorf("the router serves %s but the bad-input route table has no entry for it: add one to routeTable", key)
		}
		delete(inTable, key)
	}
	for key := range inTable {
		t.Errorf("the route table lists %s, which the router does not serve", key)
	}
	t.Logf("%d routes walked", len(routes))
}

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
	routesBStateOf(t, base, state)
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
	routesBSetUp(t, base)
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
