package handler

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
)

// Fields are the operation-specific top-level fields of a success response.
type Fields map[string]any

// ResultField in Fields replaces the envelope's result "success" (partially_completed).
const ResultField = "result"

// writeSuccess is the one success writer: the envelope, the operation's fields and, when the
// request carried parameters the endpoint does not take, ignored_parameters_unsupported. The
// envelope's fields are laid over the operation's as they are encoded (overlay), in the one
// object they make, rather than copied with them into a map of its own.
func writeSuccess(w http.ResponseWriter, p *params.Params, f Fields) {
	var env overlay
	if _, set := f[ResultField]; !set {
		env.set(ResultField, "success")
	}
	if mutation.On("ignored-parameters-never-listed") {
		p = nil
	}
	env.set("msg", "")
	if mutation.On("success-msg-ok") {
		env.set("msg", "OK")
	}
	if mutation.On("variant-extra-reply-field") {
		env.set("x_variant_note", "a field the document does not list")
	}
	if p != nil {
		if mutation.On("ignored-parameters-null-when-none") && len(p.Unsupported()) == 0 {
			env.set("ignored_parameters_unsupported", nil)
		}
		if unsupported := p.Unsupported(); len(unsupported) > 0 {
			env.set("ignored_parameters_unsupported", ignoredListed(unsupported))
			if mutation.On("ignored-parameters-as-string") {
				env.set("ignored_parameters_unsupported", strings.Join(unsupported, ","))
			}
		}
	}
	data, enc, err := encodeWith(func(e *replyEncoder) error { return e.overlaid(f, &env) })
	sendEncoded(w, http.StatusOK, data, enc, err)
}

// overlay is the fields a success envelope lays over an operation's: each replaces the
// operation's field of its name.
type overlay struct {
	fields [4]overlayField
	n      int
}

type overlayField struct {
	name  string
	value any
}

// set gives the field its value, replacing the one it had.
func (o *overlay) set(name string, value any) {
	for i := range o.fields[:o.n] {
		if o.fields[i].name == name {
			o.fields[i].value = value
			return
		}
	}
	o.fields[o.n] = overlayField{name, value}
	o.n++
}

// get is the field's value, and whether the overlay has it.
func (o *overlay) get(name string) (any, bool) {
	for _, f := range o.fields[:o.n] {
		if f.name == name {
			return f.value, true
		}
	}
	return nil, false
}

// writeTyped is writeSuccess for a reply of fixed shape: body is a struct whose JSON fields
// follow the envelope's.
func writeTyped[T any](w http.ResponseWriter, p *params.Params, body T) {
	env := typedEnvelope{body: body}
	if p != nil {
		env.ignored = p.Unsupported()
	}
	// Encoded straight from env, which passed as an interface would be copied to the heap.
	data, enc, err := encodeWith(func(e *replyEncoder) error { return e.typedEnvelope(env) })
	sendEncoded(w, http.StatusOK, data, enc, err)
}

// WriteError is the one error writer: every failure, whatever its origin, leaves here.
func WriteError(w http.ResponseWriter, err error) {
	e := reworded(mutatedError(apierr.From(err)))
	body := map[string]any{}
	for k, v := range e.Extra {
		body[k] = v
	}
	body["result"], body["msg"] = "error", e.Msg
	if e.Code != "" && !mutation.On("error-code-dropped") { // only the 405 has none
		body["code"] = e.Code
	}
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="zulip"`)
	}
	if wait, ok := e.Extra["retry-after"].(float64); ok && e.Status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", strconv.FormatFloat(wait, 'f', -1, 64))
	}
	writeJSON(w, e.Status, body)
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	// HTML escaping is off: message content is HTML, and clients read it better unescaped.
	data, enc, err := encodeReply(body)
	sendEncoded(w, status, data, enc, err)
}

// sendEncoded writes an encoded reply (encodeReply's results) with its status.
func sendEncoded(w http.ResponseWriter, status int, data []byte, enc *replyEncoder, err error) {
	defer enc.release()
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"result":"error","msg":"Internal server error","code":"INTERNAL_SERVER_ERROR"}`)
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// jsonContentType is every JSON reply's Content-Type, one value shared by all (Set would
// allocate it per reply; nothing changes a header's values in place).
var jsonContentType = []string{"application/json"}

// RateLimitHit is the real server's refusal of a request over a limit. It gives the wait in
// seconds, fractions included, in the body's retry-after and (WriteError) in Retry-After.
func RateLimitHit(wait time.Duration) *apierr.Error {
	return apierr.New(http.StatusTooManyRequests, "RATE_LIMIT_HIT", "API usage exceeded rate limit").With("retry-after", wait.Seconds())
}
