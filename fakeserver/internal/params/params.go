// Package params decodes request parameters the way the real server does: from the query
// string on every method and from form or multipart bodies on POST, PATCH and DELETE (the
// body wins when a name is in both), with JSON-encoded integers, booleans, arrays and
// objects checked strictly and errors worded as the real server words them.
//
// A handler reads what it needs; the first failure is kept and reported by Err, so a
// handler checks once after reading all of its parameters. What the handler never read is
// what the request carried but the endpoint does not support (ignored_parameters_unsupported).
package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// MaxBodyBytes bounds a request body; larger bodies are refused with a JSON error.
const MaxBodyBytes = 25 << 20

// Params holds one request's parameters and what the handler has read of them.
type Params struct {
	values pairList
	files  map[string][]*multipart.FileHeader
	// used says, of each parameter sent, whether the handler read it (false: validated but
	// not acted on); a handful per request, so a list rather than a map.
	used []usedParam
	err  error
	// plain words a value that does not parse by the kind it should be ("since is not an
	// integer"), not as JSON: see PlainValues.
	plain bool
}

// PlainValues makes a value that does not parse say what it should be (an integer, a
// boolean, a list) rather than that it "is not valid JSON", which is the real server's
// wording: for the control API, whose users send plain form values or a JSON object and
// never learn that the fake reads each value as JSON text.
func (p *Params) PlainValues() { p.plain = true }

// Parse collects the parameters of r. It fails only on a body that cannot be read.
func Parse(r *http.Request) (*Params, error) {
	p := &Params{}
	if err := p.parse(r, nil, false); err != nil {
		return nil, err
	}
	return p, nil
}

// ParseRead is Parse into p for a request whose body has been read already (body; the
// request's Body is then not read again).
func ParseRead(p *Params, r *http.Request, body []byte) error {
	*p = Params{}
	return p.parse(r, body, true)
}

func (p *Params) parse(r *http.Request, body []byte, read bool) error {
	if r.Method == http.MethodPost || r.Method == http.MethodPatch || r.Method == http.MethodDelete && !mutation.On("delete-body-ignored") || r.Method == http.MethodPut {
		if err := p.readBody(r, body, read); err != nil {
			return err
		}
	}
	if r.URL.RawQuery == "" {
		return nil
	}
	query, err := parseForm(r.URL.RawQuery)
	if err != nil {
		return apierr.BadRequest("Malformed query string: %v", err)
	}
	if mutation.On("query-plus-not-space") {
		query = formOf(plusKept(r.URL.RawQuery))
	}
	if p.values == nil {
		p.values = query
		return nil
	}
	fromBody := p.values
	for _, q := range query {
		if !fromBody.has(q.name) {
			p.values = append(p.values, q)
		}
	}
	return nil
}

// formMediaType is the media type of a form body.
const formMediaType = "application/x-www-form-urlencoded"

func (p *Params) readBody(r *http.Request, body []byte, read bool) error {
	if !read {
		if r.Body == nil {
			return nil
		}
		var err error
		if body, err = io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1)); err != nil {
			return apierr.BadRequest("Could not read the request body")
		}
	}
	if len(body) > MaxBodyBytes {
		return apierr.New(http.StatusRequestEntityTooLarge, "BAD_REQUEST", "Request body is larger than %d bytes", MaxBodyBytes)
	}
	if len(body) == 0 {
		return nil
	}
	// The plain form type, as nearly every client sends it, needs no parsing.
	mediaType, mparams := formMediaType, map[string]string(nil)
	if ct := r.Header.Get("Content-Type"); !strings.EqualFold(ct, formMediaType) {
		mediaType, mparams, _ = mime.ParseMediaType(ct)
	}
	switch mediaType {
	case "application/x-www-form-urlencoded":
		form, err := parseForm(string(body))
		if err != nil {
			return apierr.BadRequest("Malformed form body: %v", err)
		}
		p.values = form
	case "multipart/form-data":
		form, err := multipart.NewReader(bytes.NewReader(body), mparams["boundary"]).ReadForm(MaxBodyBytes)
		if err != nil {
			return apierr.BadRequest("Malformed multipart body: %v", err)
		}
		p.values = formOf(form.Value)
		p.files = form.File
	}
	// Other bodies are ignored, as the real server ignores them; the parameters they were
	// meant to carry are then reported missing by name.
	return nil
}

// Err returns the first parameter error, or nil.
func (p *Params) Err() error { return p.err }

func (p *Params) fail(e error) {
	if p.err == nil {
		p.err = e
	}
}

type usedParam struct {
	name string
	read bool
}

// mark notes whether the handler read name (false: it did not act on it). Only what the
// request sent is kept: Unsupported asks of nothing else.
func (p *Params) mark(name string, read bool) {
	if !p.values.has(name) {
		return
	}
	for i := range p.used {
		if p.used[i].name == name {
			p.used[i].read = read
			return
		}
	}
	if p.used == nil {
		p.used = make([]usedParam, 0, len(p.values))
	}
	p.used = append(p.used, usedParam{name, read})
}

// read says whether the handler read name.
func (p *Params) read(name string) bool {
	for _, u := range p.used {
		if u.name == name {
			return u.read
		}
	}
	return false
}

// Has reports whether the request carried the parameter (and marks it supported).
func (p *Params) Has(name string) bool {
	p.mark(name, true)
	return p.values.has(name)
}

// raw returns the value of name and marks it as read. A name sent more than once is read
// as its last value, as Django's QueryDict on the real server reads it.
func (p *Params) raw(name string) (string, bool) {
	p.mark(name, true)
	return p.values.last(name)
}

// Size is the length in bytes of a parameter's value (0 when absent), for a bound checked
// before the value is decoded. It does not mark the parameter read.
func (p *Params) Size(name string) int {
	v, _ := p.values.last(name)
	return len(v)
}

// Names returns the parameter names the request carried, sorted.
func (p *Params) Names() []string {
	names := make([]string, 0, len(p.values))
	for n := range p.values.names {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Unsupported returns, sorted, the names the request carried that the handler never read.
func (p *Params) Unsupported() []string {
	// Nearly always the handler read everything: then there is no list of names to sort.
	unread := false
	for n := range p.values.names {
		if !p.read(n) {
			unread = true
			break
		}
	}
	if !unread {
		return nil
	}
	var out []string
	for _, n := range p.Names() {
		if !p.read(n) {
			out = append(out, n)
		}
	}
	return out
}

// Unhonoured marks parameters the handler validated but does not act on, so that they are
// still reported in ignored_parameters_unsupported: a client learns the fake ignored them.
func (p *Params) Unhonoured(names ...string) {
	for _, n := range names {
		p.mark(n, false)
	}
}

// Files returns the uploaded files of a multipart request, in the order of their fields'
// names (a field's files in the order sent): what the real server takes does not depend on
// the order in which a client wrote the fields.
func (p *Params) Files() []*multipart.FileHeader {
	var out []*multipart.FileHeader
	for _, name := range slices.Sorted(maps.Keys(p.files)) {
		out = append(out, p.files[name]...)
	}
	return out
}

// FileContent reads an uploaded file, at most limit bytes of it (a caller that refuses a
// larger file passes one more than it takes).
func FileContent(fh *multipart.FileHeader, limit int64) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, apierr.BadRequest("Could not read the uploaded file")
	}
	defer f.Close()
	content, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, apierr.BadRequest("Could not read the uploaded file")
	}
	return content, nil
}

// String returns an optional string parameter, taken verbatim.
func (p *Params) String(name string) (string, bool) {
	v, ok := p.raw(name)
	if ok && !utf8.ValidString(v) {
		p.fail(apierr.BadRequest("%s is not valid UTF-8", name))
		return "", false
	}
	return v, ok
}

// RequiredString returns a required string parameter.
func (p *Params) RequiredString(name string) string {
	v, ok := p.String(name)
	if !ok {
		p.fail(apierr.Missing(name))
	}
	return v
}

// Enum returns a string parameter restricted to allowed values ("Invalid <name>" otherwise).
func (p *Params) Enum(name, def string, allowed ...string) string {
	v, ok := p.String(name)
	if !ok {
		return def
	}
	if !slices.Contains(allowed, v) {
		p.fail(apierr.BadRequest("Invalid %s", name))
		return def
	}
	return v
}

// RequiredEnum is Enum for a required parameter.
func (p *Params) RequiredEnum(name string, allowed ...string) string {
	if !p.values.has(name) {
		p.mark(name, true)
		p.fail(apierr.Missing(name))
		return ""
	}
	return p.Enum(name, "", allowed...)
}

// decodeJSON parses one JSON value strictly (numbers kept exact, no trailing data).
func decodeJSON(s string) (any, bool) {
	// Most values are integers or booleans, which need no decoder (its buffer alone is 512 B).
	switch {
	case s == "true", s == "false":
		return s == "true", true
	case isJSONInteger(s):
		return json.Number(s), true
	}
	// A narrow is nearly always lists of plain strings: read without a decoder too.
	if v, ok := decodeStringLists(s); ok {
		return v, true
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return v, true
}

// isJSONInteger reports whether s is a JSON number without fraction or exponent.
func isJSONInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// jsonParam reads name as a JSON value; ok is false when absent or invalid (recorded). kind
// is what the value should be ("an integer"), for the wording of PlainValues.
func (p *Params) jsonParam(name, kind string) (any, bool) {
	s, ok := p.raw(name)
	if !ok {
		return nil, false
	}
	v, valid := decodeJSON(s)
	if !valid {
		if p.plain {
			p.fail(apierr.BadRequest("%s is not %s", name, kind))
		} else {
			p.fail(apierr.BadRequest("%s is not valid JSON", name))
		}
		return nil, false
	}
	return v, true
}

// asInt checks that a decoded JSON value is an integer; path names it in errors.
func asInt(v any, path string) (int64, error) {
	n, ok := v.(json.Number)
	if !ok || strings.ContainsAny(string(n), ".eE") {
		return 0, apierr.BadRequest("%s is not an integer", path)
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		if strings.HasPrefix(string(n), "-") {
			return 0, apierr.BadRequest("%s is too small", path)
		}
		return 0, apierr.BadRequest("%s is too large", path)
	}
	return i, nil
}

// Int returns an optional JSON-encoded integer parameter.
func (p *Params) Int(name string) (int64, bool) {
	v, ok := p.jsonParam(name, "an integer")
	if !ok {
		return 0, false
	}
	i, err := asInt(v, name)
	if err != nil {
		p.fail(err)
		return 0, false
	}
	return i, true
}

// RequiredInt returns a required JSON-encoded integer parameter.
func (p *Params) RequiredInt(name string) int64 {
	if !p.values.has(name) {
		p.mark(name, true)
		p.fail(apierr.Missing(name))
		return 0
	}
	i, _ := p.Int(name)
	return i
}

// IntOrWord returns an optional parameter that is a JSON integer or the JSON string word
// (such as "unlimited" for a time limit); isWord tells which. Anything else is "not an integer".
func (p *Params) IntOrWord(name, word string) (n int64, isWord, ok bool) {
	v, present := p.jsonParam(name, fmt.Sprintf("an integer or %q", word))
	if !present {
		return 0, false, false
	}
	if v == word {
		return 0, true, true
	}
	i, err := asInt(v, name)
	if err != nil {
		p.fail(err)
		return 0, false, false
	}
	return i, false, true
}

// Bool returns a JSON-encoded boolean parameter, def when absent.
func (p *Params) Bool(name string, def bool) bool {
	v, ok := p.jsonParam(name, "a boolean")
	if !ok {
		return def
	}
	b, isBool := v.(bool)
	if !isBool {
		p.fail(apierr.BadRequest("%s is not a boolean", name))
		return def
	}
	return b
}

// IntList returns an optional JSON-encoded list of integers.
func (p *Params) IntList(name string) ([]int64, bool) {
	v, ok := p.jsonParam(name, "a list")
	if !ok {
		return nil, false
	}
	if raw, _ := p.raw(name); mutation.On("int-list-with-spaces-refused") && strings.ContainsAny(raw, " \n\t") {
		p.fail(apierr.BadRequest("%s is not a list", name))
		return nil, false
	}
	list, isList := v.([]any)
	if !isList {
		p.fail(apierr.BadRequest("%s is not a list", name))
		return nil, false
	}
	out := make([]int64, len(list))
	for i, item := range list {
		n, err := asInt(item, fmt.Sprintf("%s[%d]", name, i))
		if err != nil {
			p.fail(err)
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// RequiredIntList is IntList for a required parameter.
func (p *Params) RequiredIntList(name string) []int64 {
	if !p.values.has(name) {
		p.mark(name, true)
		p.fail(apierr.Missing(name))
		return nil
	}
	list, _ := p.IntList(name)
	return list
}

// JSON decodes a JSON-encoded parameter into a plain Go value (maps, slices, json.Number,
// strings, booleans, nil) for handlers that validate structured input themselves.
func (p *Params) JSON(name string) (any, bool) { return p.jsonParam(name, "valid JSON") }

// Fail records a handler's own validation error for a parameter.
func (p *Params) Fail(e error) { p.fail(e) }

// decodeStringLists decodes s when it is a JSON list whose items are strings without escapes
// or control characters, or such lists, a few levels deep (`[["channel","general"]]`, as a
// narrow is usually sent): the value the decoder gives, []any of []any and string. ok is
// false for anything else, which the decoder then reads; so it never judges a value invalid.
func decodeStringLists(s string) (any, bool) {
	r := stringListReader{s: s}
	r.space()
	v, ok := r.value(0)
	if !ok {
		return nil, false
	}
	r.space()
	return v, r.i == len(s)
}

type stringListReader struct {
	s string
	i int
}

func (r *stringListReader) space() {
	for r.i < len(r.s) && (r.s[r.i] == ' ' || r.s[r.i] == '\t' || r.s[r.i] == '\n' || r.s[r.i] == '\r') {
		r.i++
	}
}

func (r *stringListReader) value(depth int) (any, bool) {
	if r.i >= len(r.s) || depth > 8 {
		return nil, false
	}
	switch r.s[r.i] {
	case '"':
		start := r.i + 1
		for j := start; j < len(r.s); j++ {
			switch c := r.s[j]; {
			case c == '"':
				r.i = j + 1
				// The decoder replaces invalid UTF-8; such a string is left to it.
				return r.s[start:j], utf8.ValidString(r.s[start:j])
			case c == '\\' || c < 0x20:
				return nil, false
			}
		}
		return nil, false
	case '[':
		r.i++
		r.space()
		list := make([]any, 0, 2)
		if r.i < len(r.s) && r.s[r.i] == ']' {
			r.i++
			return list, true
		}
		for {
			v, ok := r.value(depth + 1)
			if !ok {
				return nil, false
			}
			list = append(list, v)
			r.space()
			if r.i >= len(r.s) {
				return nil, false
			}
			switch r.s[r.i] {
			case ',':
				r.i++
				r.space()
			case ']':
				r.i++
				return list, true
			default:
				return nil, false
			}
		}
	}
	return nil, false
}
