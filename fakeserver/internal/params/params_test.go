package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

const formType = "application/x-www-form-urlencoded"

// newRequest builds a request with a raw query and a body of the given content type.
func newRequest(method, query, contentType, body string) *http.Request {
	r := httptest.NewRequest(method, "http://fake.test/api/v1/x", strings.NewReader(body))
	r.URL.RawQuery = query
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	return r
}

// parse parses a request that must parse.
func parse(t *testing.T, r *http.Request) *Params {
	t.Helper()
	p, err := Parse(r)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p
}

// form builds a Params straight from name/value pairs sent in a urlencoded POST body.
func form(t *testing.T, body string) *Params {
	t.Helper()
	return parse(t, newRequest(http.MethodPost, "", formType, body))
}

// multipartBody encodes fields (and one file, when file != "") as multipart/form-data.
func multipartBody(t *testing.T, fields map[string]string, file string) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if file != "" {
		fw, err := w.CreateFormFile("file", file)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = fw.Write([]byte("file content"))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), buf.String()
}

// errOf returns the *apierr.Error behind p.Err(), nil when there is none.
func errOf(t *testing.T, p *Params) *apierr.Error {
	t.Helper()
	err := p.Err()
	if err == nil {
		return nil
	}
	var e *apierr.Error
	if !errors.As(err, &e) {
		t.Fatalf("Err() is %T, not *apierr.Error", err)
	}
	return e
}

// wantErr checks that p holds exactly the given error message (code BAD_REQUEST, 400), or
// no error when msg is "".
func wantErr(t *testing.T, p *Params, msg string) {
	t.Helper()
	e := errOf(t, p)
	switch {
	case msg == "" && e != nil:
		t.Errorf("unexpected error %v", e)
	case msg != "" && e == nil:
		t.Errorf("no error, want %q", msg)
	case msg != "" && (e.Msg != msg || e.Code != "BAD_REQUEST" || e.Status != 400):
		t.Errorf("error %v, want BAD_REQUEST (400): %s", e, msg)
	}
}

// wantMissing checks for the real server's missing-parameter error.
func wantMissing(t *testing.T, p *Params, name string) {
	t.Helper()
	e := errOf(t, p)
	if e == nil {
		t.Fatalf("no error, want Missing '%s'", name)
	}
	if e.Code != "REQUEST_VARIABLE_MISSING" || e.Status != 400 || e.Msg != "Missing '"+name+"' argument" || e.Extra["var_name"] != name {
		t.Errorf("error %v (extra %v), want REQUEST_VARIABLE_MISSING for %s", e, e.Extra, name)
	}
}

func TestParseSources(t *testing.T) {
	mpType, mpBody := multipartBody(t, map[string]string{"a": "from-multipart", "b": "2"}, "")
	for _, tc := range []struct {
		name                       string
		method, query, ctype, body string
		want                       map[string]string // first-seen value of each name; every name the request carried
	}{
		{"GET query", "GET", "a=1&b=two", "", "", map[string]string{"a": "1", "b": "two"}},
		{"GET ignores a form body", "GET", "a=1", formType, "b=2", map[string]string{"a": "1"}},
		{"POST urlencoded body", "POST", "", formType, "a=1&b=%E2%9C%94", map[string]string{"a": "1", "b": "✔"}},
		{"POST body wins over query", "POST", "a=query&c=3", formType, "a=body&b=2", map[string]string{"a": "body", "b": "2", "c": "3"}},
		{"POST query only", "POST", "a=1", "", "", map[string]string{"a": "1"}},
		{"PATCH body", "PATCH", "", formType, "a=1", map[string]string{"a": "1"}},
		{"DELETE with a form body", "DELETE", "", formType, "keys=%5B%22k%22%5D", map[string]string{"keys": `["k"]`}},
		{"PUT body", "PUT", "", formType, "a=1", map[string]string{"a": "1"}},
		{"content type with charset", "POST", "", formType + "; charset=UTF-8", "a=1", map[string]string{"a": "1"}},
		{"content type in upper case", "POST", "", "Application/X-WWW-Form-Urlencoded", "a=1", map[string]string{"a": "1"}},
		{"multipart body", "POST", "a=query", mpType, mpBody, map[string]string{"a": "from-multipart", "b": "2"}},
		{"text/plain body ignored", "POST", "q=1", "text/plain", "a=1", map[string]string{"q": "1"}},
		{"JSON body ignored", "POST", "", "application/json", `{"a":1}`, map[string]string{}},
		{"body without content type ignored", "POST", "", "", "a=1", map[string]string{}},
		{"unparseable content type ignored", "POST", "", "/;;", "a=1", map[string]string{}},
		{"empty form body", "POST", "a=1", formType, "", map[string]string{"a": "1"}},
		{"empty value", "POST", "", formType, "a=", map[string]string{"a": ""}},
		{"name without value", "POST", "", formType, "a", map[string]string{"a": ""}},
		{"plus is a space", "POST", "", formType, "a=x+y", map[string]string{"a": "x y"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parse(t, newRequest(tc.method, tc.query, tc.ctype, tc.body))
			// ParseRead, given the body a middleware read, takes the same parameters from it
			// without reading the request's Body again.
			read := newRequest(tc.method, tc.query, tc.ctype, "")
			read.Body = io.NopCloser(iotest.ErrReader(errors.New("the body was read again")))
			var fromRead Params
			if err := ParseRead(&fromRead, read, []byte(tc.body)); err != nil {
				t.Fatalf("ParseRead: %v", err)
			}
			for _, p := range []*Params{p, &fromRead} {
				got := map[string]string{}
				for _, n := range p.Names() {
					v, _ := p.String(n)
					got[n] = v
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("parameters %v, want %v", got, tc.want)
				}
				wantErr(t, p, "")
			}
		})
	}
}

// TestRepeatedParameterLastWins: like Django's QueryDict, a name sent twice is read as its
// last value.
func TestRepeatedParameterLastWins(t *testing.T) {
	p := form(t, "a=1&a=2")
	if v, _ := p.String("a"); v != "2" {
		t.Errorf("a = %q, want the last value 2", v)
	}
	p = parse(t, newRequest("GET", "a=1&a=2&a=3", "", ""))
	if v, _ := p.String("a"); v != "3" {
		t.Errorf("a = %q, want the last value 3", v)
	}
}

func TestParseMultipartFiles(t *testing.T) {
	ctype, body := multipartBody(t, map[string]string{"a": "1"}, "notes.txt")
	p := parse(t, newRequest("POST", "", ctype, body))
	files := p.Files()
	if len(files) != 1 || files[0].Filename != "notes.txt" {
		t.Errorf("files %v, want one file notes.txt", files)
	}
	if v, _ := p.String("a"); v != "1" {
		t.Errorf("a = %q", v)
	}
	if p := form(t, "a=1"); p.Files() != nil {
		t.Errorf("a urlencoded request has files: %v", p.Files())
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		method, query, ctype, body string
		status                     int
		msgPrefix                  string
	}{
		{"bad escape in query", "GET", "a=%zz", "", "", 400, "Malformed query string"},
		{"semicolon in query", "GET", "a=1;b=2", "", "", 400, "Malformed query string"},
		{"bad query on POST", "POST", "%", formType, "a=1", 400, "Malformed query string"},
		{"bad escape in form body", "POST", "", formType, "a=%zz", 400, "Malformed form body"},
		{"bad escape in DELETE body", "DELETE", "", formType, "a=%", 400, "Malformed form body"},
		{"multipart without boundary", "POST", "", "multipart/form-data", "garbage", 400, "Malformed multipart body"},
		{"multipart with wrong boundary", "POST", "", "multipart/form-data; boundary=XYZ", "--ABC\r\n\r\nx\r\n--ABC--\r\n", 400, "Malformed multipart body"},
		{"multipart cut short", "POST", "", "multipart/form-data; boundary=XYZ", "--XYZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue", 400, "Malformed multipart body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(newRequest(tc.method, tc.query, tc.ctype, tc.body))
			if err == nil {
				t.Fatalf("parsed: %v", p.Names())
			}
			if p != nil {
				t.Errorf("Params returned with an error")
			}
			if e := apierr.From(err); e.Status != tc.status || e.Code != "BAD_REQUEST" || !strings.HasPrefix(e.Msg, tc.msgPrefix) {
				t.Errorf("error %v, want %d BAD_REQUEST %q...", err, tc.status, tc.msgPrefix)
			}
		})
	}

	t.Run("body too large", func(t *testing.T) {
		body := "a=" + strings.Repeat("x", MaxBodyBytes)
		_, err := Parse(newRequest("POST", "", formType, body))
		if e := apierr.From(err); err == nil || e.Status != http.StatusRequestEntityTooLarge || e.Code != "BAD_REQUEST" {
			t.Errorf("error %v, want 413 BAD_REQUEST", err)
		}
	})
	t.Run("body of exactly the limit", func(t *testing.T) {
		body := "a=" + strings.Repeat("x", MaxBodyBytes-2)
		p := parse(t, newRequest("POST", "", formType, body))
		if v, _ := p.String("a"); len(v) != MaxBodyBytes-2 {
			t.Errorf("len(a) = %d", len(v))
		}
	})
	t.Run("unreadable body", func(t *testing.T) {
		r := httptest.NewRequest("POST", "http://fake.test/x", failingReader{})
		r.Header.Set("Content-Type", formType)
		_, err := Parse(r)
		if e := apierr.From(err); err == nil || e.Status != 400 || e.Msg != "Could not read the request body" {
			t.Errorf("error %v", err)
		}
	})
	t.Run("nil body", func(t *testing.T) {
		r := httptest.NewRequest("POST", "http://fake.test/x?a=1", nil)
		r.Body = nil
		p := parse(t, r)
		if v, _ := p.String("a"); v != "1" {
			t.Errorf("a = %q", v)
		}
	})
}

func TestString(t *testing.T) {
	p := form(t, "a=hello&b=&c=a%FFb")
	if v, ok := p.String("a"); v != "hello" || !ok {
		t.Errorf("a = %q, %v", v, ok)
	}
	if v, ok := p.String("b"); v != "" || !ok {
		t.Errorf("b = %q, %v: an empty value is present", v, ok)
	}
	if v, ok := p.String("absent"); v != "" || ok {
		t.Errorf("absent = %q, %v", v, ok)
	}
	wantErr(t, p, "")
	if v, ok := p.String("c"); v != "" || ok {
		t.Errorf("invalid UTF-8 c = %q, %v", v, ok)
	}
	wantErr(t, p, "c is not valid UTF-8")
}

func TestRequiredString(t *testing.T) {
	for _, tc := range []struct {
		body, want, err string
		missing         bool
	}{
		{body: "s=x", want: "x"},
		{body: "s=", want: ""},
		{body: "s=+a+", want: " a "},
		{body: "other=1", missing: true},
		{body: "", missing: true},
		{body: "s=%C3%28", err: "s is not valid UTF-8"},
	} {
		p := form(t, tc.body)
		if got := p.RequiredString("s"); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.body, got, tc.want)
		}
		if tc.missing {
			wantMissing(t, p, "s")
		} else {
			wantErr(t, p, tc.err)
		}
	}
}

func TestEnum(t *testing.T) {
	allowed := []string{"start", "stop"}
	for _, tc := range []struct {
		body, want, err string
	}{
		{"op=start", "start", ""},
		{"op=stop", "stop", ""},
		{"", "dflt", ""},
		{"op=bogus", "dflt", "Invalid op"},
		{"op=", "dflt", "Invalid op"},
		{"op=START", "dflt", "Invalid op"},
		{"op=start+", "dflt", "Invalid op"},
		{"op=%FF", "dflt", "op is not valid UTF-8"},
	} {
		p := form(t, tc.body)
		if got := p.Enum("op", "dflt", allowed...); got != tc.want {
			t.Errorf("Enum %q = %q, want %q", tc.body, got, tc.want)
		}
		wantErr(t, p, tc.err)
	}
	for _, tc := range []struct {
		body, want, err string
		missing         bool
	}{
		{body: "op=start", want: "start"},
		{body: "", missing: true},
		{body: "op=bogus", err: "Invalid op"},
	} {
		p := form(t, tc.body)
		if got := p.RequiredEnum("op", allowed...); got != tc.want {
			t.Errorf("RequiredEnum %q = %q, want %q", tc.body, got, tc.want)
		}
		if tc.missing {
			wantMissing(t, p, "op")
			if u := p.Unsupported(); len(u) != 0 {
				t.Errorf("unsupported %v", u)
			}
		} else {
			wantErr(t, p, tc.err)
		}
	}
}

func TestDecodeJSON(t *testing.T) {
	for _, tc := range []struct {
		in    string
		valid bool
	}{
		{"1", true}, {" 1 ", true}, {"\n[1, 2]\t", true}, {`{"a":[1,{"b":null}]}`, true}, {`"x"`, true},
		{"true", true}, {"null", true}, {"-0", true}, {"1e400", true},
		{"", false}, {" ", false}, {"abc", false}, {"[1,", false}, {"1 2", false}, {"[1] x", false},
		{`{"a":1}{}`, false}, {"[1]]", false}, {"'x'", false}, {"05", false}, {"+1", false}, {"0x10", false},
		{"NaN", false}, {"Infinity", false}, {"True", false}, {`{"a":1,}`, false}, {"[1,]", false},
		{strings.Repeat("[", 100000), false},
		{"0", true}, {"-5", true}, {"false", true}, {"123456789012345678901234567890", true},
		{"-", false}, {"-01", false}, {"1.", false}, {"--1", false},
	} {
		v, ok := decodeJSON(tc.in)
		if ok != tc.valid {
			t.Errorf("decodeJSON(%q) valid = %v, want %v", cut(tc.in), ok, tc.valid)
		}
		// The integers and booleans decoded without a decoder are the decoder's values.
		dec := json.NewDecoder(strings.NewReader(tc.in))
		dec.UseNumber()
		var want any
		if ok && len(tc.in) < 100 && (dec.Decode(&want) != nil || !reflect.DeepEqual(want, v)) {
			t.Errorf("decodeJSON(%q) = %#v, the decoder's value is %#v", tc.in, v, want)
		}
		if ok {
			if _, isFloat := v.(float64); isFloat {
				t.Errorf("decodeJSON(%q) gave a float64; numbers must stay exact", tc.in)
			}
		}
	}
}

func cut(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

func TestInt(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int64
		err   string
	}{
		{"5", 5, ""},
		{"-5", -5, ""},
		{"0", 0, ""},
		{"-0", 0, ""},
		{" 7 ", 7, ""},
		{"9223372036854775807", 9223372036854775807, ""},
		{"-9223372036854775808", -9223372036854775808, ""},
		{"9223372036854775808", 0, "n is too large"},
		{"99999999999999999999", 0, "n is too large"},
		{"-9223372036854775809", 0, "n is too small"},
		{"-99999999999999999999", 0, "n is too small"},
		{"1.5", 0, "n is not an integer"},
		{"1.0", 0, "n is not an integer"},
		{"1e3", 0, "n is not an integer"},
		{"1E3", 0, "n is not an integer"},
		{"-1e400", 0, "n is not an integer"},
		{`"5"`, 0, "n is not an integer"},
		{"true", 0, "n is not an integer"},
		{"null", 0, "n is not an integer"},
		{"[1]", 0, "n is not an integer"},
		{`{"n":1}`, 0, "n is not an integer"},
		{"abc", 0, "n is not valid JSON"},
		{"", 0, "n is not valid JSON"},
		{"[1,", 0, "n is not valid JSON"},
		{"1 2", 0, "n is not valid JSON"},
		{"05", 0, "n is not valid JSON"},
		{"+5", 0, "n is not valid JSON"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			p := parse(t, newRequest("GET", "n="+urlEscape(tc.value), "", ""))
			got, ok := p.Int("n")
			if got != tc.want || ok != (tc.err == "") {
				t.Errorf("Int = %d, %v; want %d, %v", got, ok, tc.want, tc.err == "")
			}
			wantErr(t, p, tc.err)

			p = parse(t, newRequest("GET", "n="+urlEscape(tc.value), "", ""))
			if got := p.RequiredInt("n"); got != tc.want {
				t.Errorf("RequiredInt = %d, want %d", got, tc.want)
			}
			wantErr(t, p, tc.err)
		})
	}
	t.Run("absent", func(t *testing.T) {
		p := form(t, "")
		if got, ok := p.Int("n"); got != 0 || ok {
			t.Errorf("Int = %d, %v", got, ok)
		}
		wantErr(t, p, "")
		if got := p.RequiredInt("n"); got != 0 {
			t.Errorf("RequiredInt = %d", got)
		}
		wantMissing(t, p, "n")
	})
}

func urlEscape(s string) string {
	r := strings.NewReplacer("%", "%25", "&", "%26", "+", "%2B", "#", "%23", " ", "%20", "=", "%3D", ";", "%3B")
	return r.Replace(s)
}

func TestBool(t *testing.T) {
	for _, tc := range []struct {
		body string
		def  bool
		want bool
		err  string
	}{
		{"b=true", false, true, ""},
		{"b=false", true, false, ""},
		{"b=+true+", false, true, ""},
		{"", true, true, ""},
		{"", false, false, ""},
		{"b=1", true, true, "b is not a boolean"},
		{"b=0", false, false, "b is not a boolean"},
		{`b="true"`, false, false, "b is not a boolean"},
		{"b=null", false, false, "b is not a boolean"},
		{"b=[true]", false, false, "b is not a boolean"},
		{"b=yes", false, false, "b is not valid JSON"},
		{"b=True", false, false, "b is not valid JSON"},
		{"b=TRUE", false, false, "b is not valid JSON"},
		{"b=", true, true, "b is not valid JSON"},
		{"b=true+x", false, false, "b is not valid JSON"},
	} {
		p := form(t, tc.body)
		if got := p.Bool("b", tc.def); got != tc.want {
			t.Errorf("Bool(%q, %v) = %v, want %v", tc.body, tc.def, got, tc.want)
		}
		wantErr(t, p, tc.err)
	}
}

func TestIntList(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  []int64
		err   string
	}{
		{"[1,2,3]", []int64{1, 2, 3}, ""},
		{"[]", []int64{}, ""},
		{"[-1, 0]", []int64{-1, 0}, ""},
		{"{}", nil, "l is not a list"},
		{`{"a":1}`, nil, "l is not a list"},
		{"5", nil, "l is not a list"},
		{`"[1]"`, nil, "l is not a list"},
		{"null", nil, "l is not a list"},
		{"[1.5]", nil, "l[0] is not an integer"},
		{`[1,"2"]`, nil, "l[1] is not an integer"},
		{"[1,true]", nil, "l[1] is not an integer"},
		{"[[1]]", nil, "l[0] is not an integer"},
		{"[null]", nil, "l[0] is not an integer"},
		{"[99999999999999999999]", nil, "l[0] is too large"},
		{"[1,-99999999999999999999]", nil, "l[1] is too small"},
		{"abc", nil, "l is not valid JSON"},
		{"[1,", nil, "l is not valid JSON"},
		{"[1] [2]", nil, "l is not valid JSON"},
		{"", nil, "l is not valid JSON"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			body := "l=" + urlEscape(tc.value)
			p := form(t, body)
			got, ok := p.IntList("l")
			if !reflect.DeepEqual(got, tc.want) || ok != (tc.err == "") {
				t.Errorf("IntList = %v, %v; want %v, %v", got, ok, tc.want, tc.err == "")
			}
			wantErr(t, p, tc.err)

			p = form(t, body)
			if got := p.RequiredIntList("l"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("RequiredIntList = %v, want %v", got, tc.want)
			}
			wantErr(t, p, tc.err)
		})
	}
	t.Run("absent", func(t *testing.T) {
		p := form(t, "")
		if got, ok := p.IntList("l"); got != nil || ok {
			t.Errorf("IntList = %v, %v", got, ok)
		}
		wantErr(t, p, "")
		if got := p.RequiredIntList("l"); got != nil {
			t.Errorf("RequiredIntList = %v", got)
		}
		wantMissing(t, p, "l")
	})
}

func TestJSON(t *testing.T) {
	p := form(t, "v="+urlEscape(`{"a":[1,"x",true,null,2.5]}`))
	v, ok := p.JSON("v")
	want := map[string]any{"a": []any{json.Number("1"), "x", true, nil, json.Number("2.5")}}
	if !ok || !reflect.DeepEqual(v, want) {
		t.Errorf("JSON = %#v, %v; want %#v", v, ok, want)
	}
	wantErr(t, p, "")

	p = form(t, "v=%7B")
	if v, ok := p.JSON("v"); v != nil || ok {
		t.Errorf("JSON of bad input = %v, %v", v, ok)
	}
	wantErr(t, p, "v is not valid JSON")

	p = form(t, "")
	if v, ok := p.JSON("v"); v != nil || ok {
		t.Errorf("JSON of absent = %v, %v", v, ok)
	}
	wantErr(t, p, "")
}

func TestUnsupported(t *testing.T) {
	for _, tc := range []struct {
		name  string
		query string
		body  string
		read  func(p *Params)
		want  []string
	}{
		{"nothing sent", "", "", func(p *Params) { p.String("a") }, nil},
		{"all read", "", "a=1&b=2", func(p *Params) { p.String("a"); p.Int("b") }, nil},
		{"none read, sorted", "", "zeta=1&alpha=2&mid=3", func(*Params) {}, []string{"alpha", "mid", "zeta"}},
		{"some read", "", "c=1&b=2&a=3", func(p *Params) { p.String("b") }, []string{"a", "c"}},
		{"query and body together", "q=1&a=9", "a=1&b=2", func(p *Params) { p.String("b") }, []string{"a", "q"}},
		{"Has counts as read", "", "a=1&b=2", func(p *Params) { p.Has("a") }, []string{"b"}},
		{"a failed read counts as read", "", "a=x&b=2", func(p *Params) { p.Int("a") }, []string{"b"}},
		{"every getter", "", "s=x&r=y&e=v&re=v&i=1&ri=1&b=true&l=[1]&rl=[2]&j={}&u=1", func(p *Params) {
			p.String("s")
			p.RequiredString("r")
			p.Enum("e", "", "v")
			p.RequiredEnum("re", "v")
			p.Int("i")
			p.RequiredInt("ri")
			p.Bool("b", false)
			p.IntList("l")
			p.RequiredIntList("rl")
			p.JSON("j")
		}, []string{"u"}},
		{"reading absent names adds nothing", "", "x=1", func(p *Params) { p.String("y"); p.RequiredInt("z") }, []string{"x"}},
		{"empty and odd names", "", "=1&%20=2&%E2%9C%94=3", func(*Params) {}, []string{"", " ", "✔"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parse(t, newRequest("POST", tc.query, formType, tc.body))
			tc.read(p)
			if got := p.Unsupported(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Unsupported() = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestNames(t *testing.T) {
	p := parse(t, newRequest("POST", "q=1&b=0", formType, "b=1&a=2"))
	if got, want := p.Names(), []string{"a", "b", "q"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}

func TestFirstErrorWins(t *testing.T) {
	p := form(t, "a=x&b=1.5&c=%FF")
	p.Int("a")
	p.Int("b")
	p.String("c")
	p.RequiredString("missing")
	p.Fail(apierr.BadRequest("handler's own"))
	wantErr(t, p, "a is not valid JSON")

	p = form(t, "b=1.5")
	p.RequiredString("missing")
	p.Int("b")
	wantMissing(t, p, "missing")

	p = form(t, "a=1")
	p.Fail(apierr.BadRequest("handler's own"))
	p.Int("zzz")
	p.RequiredInt("zzz")
	wantErr(t, p, "handler's own")

	p = form(t, "a=1")
	if err := p.Err(); err != nil {
		t.Errorf("Err() = %v with no failure", err)
	}
}

// decodeStringLists gives, for every value it reads, the decoder's value, and reads only
// values the decoder takes; the rest it leaves to the decoder. Listed cases, then random
// strings made of the pieces such values are made of.
func TestDecodeStringListsMatchesTheDecoder(t *testing.T) {
	decoder := func(s string) (any, bool) {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return nil, false
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, false
		}
		return v, true
	}
	check := func(s string) bool {
		t.Helper()
		got, ok := decodeStringLists(s)
		if !ok {
			return false
		}
		want, valid := decoder(s)
		if !valid || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeStringLists(%q) = %#v; the decoder: %#v, valid %v", s, got, want, valid)
		}
		if all, _ := decodeJSON(s); !reflect.DeepEqual(all, want) {
			t.Errorf("decodeJSON(%q) = %#v; the decoder: %#v", s, all, want)
		}
		return true
	}
	for _, s := range []string{
		`[["channel","general"],["topic","topic 7"]]`, ` [ [ "a" , "b" ] ]	`, `[]`, `[[]]`, `["x"]`, `[""]`, `"x"`,
		`[["stream","Dänemark ✔"]]`, "[[\"a\",\"b\"]]\n", `[[[[["deep"]]]]]`,
	} {
		if !check(s) {
			t.Errorf("decodeStringLists(%q) left a plain list to the decoder", s)
		}
	}
	for _, s := range []string{
		`[["a","b"]`, `[["a","b"]]]`, `[["a","b"],]`, `[,]`, `["a\"b"]`, `["a\u0041"]`, "[\"a\tb\"]", `["a" "b"]`,
		`[["a",1]]`, `[{"operator":"channel"}]`, `[null]`, `[true]`, "[\"\xff\"]", `[["a","b"]] x`, `[[[[[[[[[[["deep"]]]]]]]]]]]`,
		`["a"`, `"a`, `[`, ``, ` `,
	} {
		if check(s) {
			continue
		}
		got, ok := decodeJSON(s)
		want, valid := decoder(s)
		if ok != valid || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeJSON(%q) = %#v, %v; the decoder: %#v, %v", s, got, ok, want, valid)
		}
	}
	pieces := []string{"[", "]", ",", `"`, "a", " ", "\t", "\\", "é", "\xff", "\x01", "1", "{", "}", ":", "null", `"x"`}
	rng := rand.New(rand.NewPCG(1, 2))
	read := 0
	for range 200000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if check(b.String()) {
			read++
		}
	}
	if read < 100 {
		t.Errorf("only %d random values read: the generator makes too few lists", read)
	}
}
