// Package check validates HTTP exchanges against the fake's OpenAPI description with
// kin-openapi: every request, every reply and, inside each reply of GET /events, every event.
// A request the description does not accept must be refused with an error; a reply must match
// the description of its operation and status; a route the description lacks must not succeed.
package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/openapi"
)

// maxViolations bounds the violations kept: a systematic fault repeats on every exchange.
const maxViolations = 200

// Checker validates exchanges and keeps the count and the violations.
type Checker struct {
	doc    *openapi3.T
	router routers.Router

	// slashPrefixes are the paths before a last parameter that holds slashes (x-slashes).
	slashPrefixes []string

	mu         sync.Mutex
	exchanges  int
	events     int
	violations []string
	dropped    int
}

// Report is what a Checker saw.
type Report struct {
	Exchanges  int      `json:"exchanges"`
	Events     int      `json:"events"`
	Violations []string `json:"violations"`
	// Dropped counts the violations past the ones kept.
	Dropped int `json:"dropped"`
}

// OK tells whether no exchange violated the description.
func (r Report) OK() bool { return len(r.Violations) == 0 }

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "openapi: %d exchanges and %d events validated, %d violations", r.Exchanges, r.Events, len(r.Violations)+r.Dropped)
	for _, v := range r.Violations {
		fmt.Fprintf(&b, "\n  - %s", v)
	}
	if r.Dropped > 0 {
		fmt.Fprintf(&b, "\n  ... and %d more", r.Dropped)
	}
	return b.String()
}

// Load reads and validates the fake's description.
func Load() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.YAML())
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("openapi.yaml is not a valid description: %w", err)
	}
	return doc, nil
}

// New is a Checker of the fake's description.
func New() (*Checker, error) {
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &Checker{doc: doc, router: router, slashPrefixes: slashPrefixes(doc)}, nil
}

// slashPrefixes lists the literal paths before a last path parameter marked x-slashes: a
// value that holds slashes as they are (the real server's path converter), which an OpenAPI
// template cannot match.
func slashPrefixes(doc *openapi3.T) []string {
	var prefixes []string
	for template, item := range doc.Paths.Map() {
		i := strings.LastIndex(template, "/{")
		if i < 0 || !strings.HasSuffix(template, "}") || strings.Contains(template[:i], "{") {
			continue
		}
		p := item.Parameters.GetByInAndName(openapi3.ParameterInPath, template[i+2:len(template)-1])
		if p != nil && p.Extensions["x-slashes"] == true {
			prefixes = append(prefixes, template[:i+1])
		}
	}
	return prefixes
}

// joinSlashes is the request with the slashes of a value that holds them (slashPrefixes)
// encoded, so that its route is found as for a value sent encoded.
func (c *Checker) joinSlashes(req *http.Request) *http.Request {
	path := req.URL.EscapedPath()
	for _, prefix := range c.slashPrefixes {
		rest, ok := strings.CutPrefix(path, prefix)
		if !ok || !strings.Contains(rest, "/") {
			continue
		}
		joined := req.Clone(req.Context())
		joined.URL.RawPath = prefix + strings.ReplaceAll(rest, "/", "%2F")
		joined.URL.Path, _ = url.PathUnescape(joined.URL.RawPath)
		return joined
	}
	return req
}

// Documented tells whether the description has an operation for a method and a concrete path.
func (c *Checker) Documented(method, path string) bool {
	req, _ := http.NewRequest(method, path, nil)
	_, _, err := c.router.FindRoute(req)
	return err == nil
}

// Report is what the Checker has seen so far.
func (c *Checker) Report() Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Report{Exchanges: c.exchanges, Events: c.events, Violations: append([]string(nil), c.violations...), Dropped: c.dropped}
}

// Wrap validates every exchange that h answers. The reply reaches the client unchanged.
func (c *Checker) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The body is read first, to be checked after the reply; a body that fails midway
		// fails the same way for the fake, which answers as it would unwrapped. The fake's
		// bound applies first: a larger body is read no further than the fake would read it,
		// and the fake answers it 413 from the error.
		var body []byte
		var err error = &http.MaxBytesError{Limit: params.MaxBodyBytes}
		if r.ContentLength <= params.MaxBodyBytes {
			body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, params.MaxBodyBytes))
		}
		if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
			body = nil // refused whole: neither the fake nor the check reads what arrived
		}
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), failingReader{err}))
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)

		req := r.Clone(context.Background())
		req.Body = io.NopCloser(bytes.NewReader(body))
		events, problems := c.Exchange(req, rec.status, w.Header(), rec.body.Bytes())
		c.record(events, problems)
	})
}

func (c *Checker) record(events int, problems []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.exchanges++
	c.events += events
	for _, p := range problems {
		if len(c.violations) < maxViolations {
			c.violations = append(c.violations, p)
		} else {
			c.dropped++
		}
	}
}

// Exchange validates one exchange: the request (with its body), the reply's status, headers
// and body. It returns the number of events validated and the violations found.
func (c *Checker) Exchange(req *http.Request, status int, header http.Header, body []byte) (int, []string) {
	req = c.joinSlashes(req)
	name := req.Method + " " + req.URL.Path
	fail := func(format string, args ...any) []string {
		return []string{name + fmt.Sprintf(" (%d): ", status) + fmt.Sprintf(format, args...)}
	}
	// HEAD is GET without the body, answered wherever GET is (as the real server does); the
	// description lists the GET.
	head := false
	if req.Method == http.MethodHead {
		get := req.Clone(context.Background())
		get.Method = http.MethodGet
		if _, _, err := c.router.FindRoute(get); err == nil {
			req, head = get, true
		}
	}
	route, params, err := c.router.FindRoute(req)
	if err == nil && status == http.StatusMethodNotAllowed && !pathParamsMatch(route, params) {
		err = routers.ErrMethodNotAllowed // the method is described for other values of the path
	}
	if err != nil {
		return 0, c.unrouted(req, status, header, body, err, fail)
	}
	dropUnreadBody(req, route)
	mergeQueryIntoForm(req, route)
	opts := &openapi3filter.Options{
		MultiError:            true,
		IncludeResponseStatus: true,
		// Credentials are the fake's to check; the description says which it takes.
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
	}
	reqInput := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	reqErr := openapi3filter.ValidateRequest(context.Background(), reqInput)
	var problems []string
	if reqErr != nil && status < 400 {
		problems = append(problems, fail("a request the description does not accept succeeded: %v", oneLine(reqErr))...)
	}
	respOpts := *opts
	respOpts.ExcludeResponseBody = head
	if mediaType(header) != "application/json" {
		// Files: the description says which content types an operation answers with.
		respOpts.ExcludeResponseBody = true
		if resp := route.Operation.Responses.Status(status); status < 300 && resp != nil && resp.Value.Content.Get(mediaType(header)) == nil {
			problems = append(problems, fail("content type %q is not described", header.Get("Content-Type"))...)
		}
	}
	respErr := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: reqInput, Status: status, Header: header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: &respOpts,
	})
	events, eventProblems := 0, []string(nil)
	if route.Operation.OperationID == "getEvents" && status == http.StatusOK {
		events, eventProblems = c.checkEvents(body, fail)
	}
	switch {
	case len(eventProblems) > 0:
		// The same faults, each named by its event rather than by every branch of the oneOf.
		problems = append(problems, eventProblems...)
	case respErr != nil:
		problems = append(problems, fail("reply does not match the description: %v", oneLine(respErr))...)
	}
	return events, problems
}

// checkEvents checks each event of a GET /events reply against the schema its type maps to.
func (c *Checker) checkEvents(body []byte, fail func(string, ...any) []string) (int, []string) {
	var reply struct {
		Events []map[string]any `json:"events"`
	}
	if json.Unmarshal(body, &reply) != nil {
		return 0, nil // the reply's own validation says what is wrong
	}
	mapping := c.doc.Components.Schemas["Event"].Value.Discriminator.Mapping
	var problems []string
	for i, ev := range reply.Events {
		typ, _ := ev["type"].(string)
		ref, ok := mapping[typ]
		if !ok {
			problems = append(problems, fail("event %d: event type %q is not described", i, typ)...)
			continue
		}
		name := strings.TrimPrefix(ref.Ref, "#/components/schemas/")
		if p := c.matches(name, mustJSON(ev), fail); p != nil {
			problems = append(problems, fail("event %d (%s): %s", i, typ, strings.Join(p, "; "))...)
		}
	}
	return len(reply.Events), problems
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// dropUnreadBody removes a body the server does not read: the API reads a body only as a form
// (URL-encoded or multipart), as the real server does, and ignores one of another type (JSON,
// text) or of none as if there were none; the description says so. An operation that describes the type
// (the control API's JSON) keeps it.
func dropUnreadBody(req *http.Request, route *routers.Route) {
	switch t := mediaType(req.Header); {
	case t == "" && req.Header.Get("Content-Type") == "" && req.ContentLength != 0:
		// a body without a type: neither server reads it
	case t == "" || t == "application/x-www-form-urlencoded" || t == "multipart/form-data":
		return
	case route.Operation.RequestBody != nil && route.Operation.RequestBody.Value.Content.Get(t) != nil:
		return
	}
	req.Body, req.ContentLength = http.NoBody, 0
	req.Header.Del("Content-Type")
}

// mergeQueryIntoForm moves the query parameters of a request that has a body into its form
// body: the server reads an operation's parameters from either (zulip-js sends those of PATCH
// and DELETE in the query string), and the description lists them once, as the body's fields.
func mergeQueryIntoForm(req *http.Request, route *routers.Route) {
	if req.Method == http.MethodGet || req.Method == http.MethodHead || route.Operation.RequestBody == nil || req.URL.RawQuery == "" {
		return
	}
	if t := mediaType(req.Header); t != "" && t != "application/x-www-form-urlencoded" {
		return
	}
	query, err := url.ParseQuery(req.URL.RawQuery)
	if err != nil {
		return // a malformed query: the request is checked as sent
	}
	body, _ := io.ReadAll(req.Body)
	form, err := url.ParseQuery(string(body))
	if err != nil {
		req.Body = io.NopCloser(bytes.NewReader(body))
		return
	}
	for k, vs := range query {
		form[k] = append(form[k], vs...)
	}
	req.URL.RawQuery = ""
	req.Body = io.NopCloser(strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
}

// unrouted checks a request to a method and path the description lacks: the reply must be
// an error in the envelope (405 without a code, as the real server's, with an Allow header).
func (c *Checker) unrouted(req *http.Request, status int, header http.Header, body []byte, err error, fail func(string, ...any) []string) []string {
	if status < 400 {
		return fail("undocumented route answered with success: add it to fakeserver/openapi/openapi.yaml")
	}
	schema := "Error"
	route, params := c.anyRoute(req)
	switch {
	case status == http.StatusMethodNotAllowed:
		// The real server's 405, also where the description's template is narrower than the
		// route (a path converter takes the rest of the path: /user_uploads/1/a/b/c/d).
		if header.Get("Allow") == "" {
			return fail("a 405 must name the allowed methods in its Allow header")
		}
		schema = "MethodNotAllowed"
	case !errors.Is(err, routers.ErrMethodNotAllowed) || route == nil:
	case slices.Contains(route.Operation.Tags, "control") &&
		(status == http.StatusUnauthorized || status == http.StatusForbidden):
		// the control API's protection answers before the method is looked at
	case (status == http.StatusNotFound || status == http.StatusUnauthorized) && servedAtSomeLevels(route):
		// the path exists only at the levels that serve it, and may not at the fake's: an
		// unknown path, answered 404, or 401 first to a client without credentials
	case pathParamsMatch(route, params):
		return fail("a method the path does not take must be answered 405")
	}
	if req.Method == http.MethodHead {
		return nil
	}
	return c.matches(schema, body, fail)
}

// servedAtSomeLevels tells whether every operation of the route's path is served only at
// some feature levels (x-served-levels), so that at others the whole path is unknown.
func servedAtSomeLevels(route *routers.Route) bool {
	ops := route.PathItem.Operations()
	for _, op := range ops {
		if op.Extensions["x-served-levels"] == nil {
			return false
		}
	}
	return len(ops) > 0
}

// anyRoute is the route of a path for some method it takes, with the path's parameters.
func (c *Checker) anyRoute(req *http.Request) (*routers.Route, map[string]string) {
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete} {
		other := req.Clone(context.Background())
		other.Method = method
		if route, params, err := c.router.FindRoute(other); err == nil {
			return route, params
		}
	}
	return nil, nil
}

// pathParamsMatch tells whether the path's parameters take values the route accepts: an
// integer (an ID) is digits, a string matches its pattern. A path with other values matches no
// route of the server (the real server's URL patterns, the fake's alike): it is answered 404
// whatever the method, or 405 where the same path takes the method with other values.
func pathParamsMatch(route *routers.Route, params map[string]string) bool {
	for _, p := range append(slices.Clone(route.Operation.Parameters), route.PathItem.Parameters...) {
		if p.Value == nil || p.Value.In != openapi3.ParameterInPath || p.Value.Schema == nil {
			continue
		}
		if own := route.Operation.Parameters.GetByInAndName(openapi3.ParameterInPath, p.Value.Name); own != nil && own != p.Value {
			continue // the operation's own parameter of that name overrides the path's
		}
		schema, v := p.Value.Schema.Value, params[p.Value.Name]
		switch {
		case schema.Type.Is("integer") && (v == "" || strings.Trim(v, "0123456789") != ""):
			return false
		case schema.Type.Is("string") && schema.VisitJSON(v) != nil:
			return false
		}
	}
	return true
}

// matches validates a reply body against a schema of the description's components.
func (c *Checker) matches(schema string, body []byte, fail func(string, ...any) []string) []string {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fail("reply is not JSON: %v", err)
	}
	if err := c.doc.Components.Schemas[schema].Value.VisitJSON(v, openapi3.MultiErrors(), openapi3.EnableJSONSchema2020()); err != nil {
		return fail("reply does not match %s: %v", schema, oneLine(err))
	}
	return nil
}

func mediaType(h http.Header) string {
	t, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return t
}

// oneLine keeps a violation on one line of the report.
func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}

// failingReader ends a request body with the error that reading it met (io.EOF if none).
type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) {
	if f.err == nil {
		return 0, io.EOF
	}
	return 0, f.err
}

// recorder passes the reply through and keeps a copy of its status and body.
type recorder struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	body        bytes.Buffer
}

func (r *recorder) WriteHeader(status int) {
	if !r.wroteHeader {
		r.status, r.wroteHeader = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wroteHeader = true
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection (long polls move their deadlines).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
