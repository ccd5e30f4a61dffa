package harness

import (
	"fmt"
	"mime"
	"slices"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// Success asserts that r is a success envelope — a JSON object with result
// "success" and msg "" — and returns the object for the operation's fields.
// It does not assert the HTTP status: the API document does not give one
// (docs/design.md, "Assert what is documented"); the status seen is recorded as a report entry.
func Success(r *httpexpect.Response) *httpexpect.Object {
	ginkgo.GinkgoHelper()
	noteStatus(r, "success")
	obj := envelope(r)
	obj.Value("result").String().IsEqual("success")
	obj.Value("msg").String().IsEqual("")
	return obj
}

// FailsWith asserts that r is an error envelope with the given code: a JSON
// object with result "error", code = code and a string msg. The HTTP status
// is recorded, not asserted.
func FailsWith(r *httpexpect.Response, code string) *httpexpect.Object {
	ginkgo.GinkgoHelper()
	noteStatus(r, "error "+code)
	obj := envelope(r)
	obj.Value("result").String().IsEqual("error")
	obj.Value("code").String().IsEqual(code)
	obj.Value("msg").String()
	return obj
}

// Fails asserts that r is an error envelope without demanding a code, for
// errors whose code the document does not show: result "error", a
// non-empty code string, a string msg.
func Fails(r *httpexpect.Response) *httpexpect.Object {
	ginkgo.GinkgoHelper()
	noteStatus(r, "error")
	obj := envelope(r)
	obj.Value("result").String().IsEqual("error")
	obj.Value("code").String().NotEmpty()
	obj.Value("msg").String()
	return obj
}

// envelope decodes the body as a JSON object. The document says responses
// are JSON objects but not which Content-Type they carry, so whatever media
// type the response declares is accepted (only its charset must be
// readable); httpexpect checks the Content-Type otherwise.
func envelope(r *httpexpect.Response) *httpexpect.Object {
	ginkgo.GinkgoHelper()
	var opts []httpexpect.ContentOpts
	if raw := r.Raw(); raw != nil {
		if mt, params, err := mime.ParseMediaType(raw.Header.Get("Content-Type")); err == nil {
			opts = append(opts, httpexpect.ContentOpts{MediaType: mt, Charset: params["charset"]})
		}
	}
	return r.JSON(opts...).Object()
}

// noteStatus records the HTTP status (and Content-Type) the target chose,
// as information shown for failed specs and in verbose runs.
func noteStatus(r *httpexpect.Response, expected string) {
	raw := r.Raw()
	if raw == nil || !inSpec() {
		return
	}
	method, path := "", ""
	if raw.Request != nil {
		method, path = raw.Request.Method, raw.Request.URL.Path
	}
	ginkgo.AddReportEntry("http status",
		fmt.Sprintf("%s %s: HTTP %d, Content-Type %q (expected %s envelope)",
			method, path, raw.StatusCode, raw.Header.Get("Content-Type"), expected),
		ginkgo.ReportEntryVisibilityFailureOrVerbose)
}

// inSpec reports whether a Ginkgo node is running; AddReportEntry fails
// outside one (for example in the harness's own unit tests).
func inSpec() bool {
	return ginkgo.CurrentSpecReport().LeafNodeType != types.NodeTypeInvalid
}

// BareSuccess asserts a success envelope for an operation whose response the document says
// has "no extra fields". That means the operation documents none, not that a server may send
// none: a field beyond result, msg and ignored_parameters_unsupported never fails a spec; it
// is recorded as information.
func BareSuccess(r *httpexpect.Response) *httpexpect.Object {
	ginkgo.GinkgoHelper()
	obj := Success(r)
	var extra []string
	for key := range obj.Raw() {
		if !envelopeKeys[key] {
			extra = append(extra, key)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		Info("undocumented response fields", "%v", extra)
	}
	return obj
}
