package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

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
	// its requests are multipart/form-data carrying the values and one file in that field,
	// uploadContent (a line of text when nil).
	upload        string
	uploadContent []byte
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

func badRequest(msg string) want { return bad(400, "BAD_REQUEST", msg) }

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
		content := rs.uploadContent
		if content == nil {
			content = []byte("a file of the bad-input test\n")
		}
		req.body, req.contentType = integMultipart(vals, rs.upload, "badinput.txt", content)
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

// valuesFor lists the malformed values of a kind and what each must get; the control API's
// errors name the kind a value should be where the API's say it is not valid JSON.
func valuesFor(p param, control bool) []struct {
	label, value string
	want         want
} {
	n := p.name
	type vw = struct {
		label, value string
		want         want
	}
	notJSON := badRequest(n + " is not valid JSON")
	if control {
		notJSON = badRequest(n + " is not " + map[kind]string{kInt: "an integer", kBool: "a boolean"}[p.kind])
	}
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
		for _, v := range valuesFor(p, strings.HasPrefix(rs.pattern, "/_fake/")) {
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

// onPath is r sent to another path.
func onPath(path string, r request) request { r.path = path; return r }

// Values the account routes' cases share.
var (
	memberEmail    = "member@chat.example.test"
	ownerPrincipal = bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	notGuests      = badRequest("Not allowed for guest users")
	notBots        = badRequest("This endpoint does not accept bot requests.")
	insufficient   = badRequest("Insufficient permission")
)

// narrowGeneral is a valid narrow: the setup channel.
const narrowGeneral = `[{"operator":"channel","operand":"general"}]`

// badNarrow is the error of a narrow the server refuses.
func badNarrow(msg string) want { return bad(400, "BAD_NARROW", "Invalid narrow operator: "+msg) }

// valuesOf builds url.Values-style name/value pairs for routeSpec.build.
func valuesOf(kv ...string) map[string][]string {
	v := map[string][]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		v[kv[i]] = append(v[kv[i]], kv[i+1])
	}
	return v
}
