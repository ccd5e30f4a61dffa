// Package ops holds what the conformance specs share and is not itself a spec: the requests and
// checks of users, accounts and messages (accounts.go, messages.go: each route the specs send
// goes through one function here, named for the operation), building requests from name,
// value pairs (WithQuery, WithForm, SendForm), reading an envelope without asserting (Envelope)
// and the member-and-channel setup many specs start from (MemberChannel). Its helpers fail the
// running spec, as the harness's do.
package ops

import (
	"encoding/json"
	"fmt"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// WithQuery adds query parameters given as name, value pairs to req, in the order the
// document lists them, which keeps a spec's call close to its text.
func WithQuery(req *httpexpect.Request, kv ...any) *httpexpect.Request {
	return withPairs(req, (*httpexpect.Request).WithQuery, kv)
}

// WithForm adds form fields given as name, value pairs to req.
func WithForm(req *httpexpect.Request, kv ...any) *httpexpect.Request {
	return withPairs(req, (*httpexpect.Request).WithFormField, kv)
}

// withPairs applies add to each name, value pair of kv. A name without a value, or a name
// that is not a string, is a mistake in the spec and panics while the spec runs.
func withPairs(req *httpexpect.Request, add func(*httpexpect.Request, string, any) *httpexpect.Request, kv []any) *httpexpect.Request {
	if len(kv)%2 != 0 {
		panic(fmt.Sprintf("specs: parameters %v are not name, value pairs", kv))
	}
	for i := 0; i < len(kv); i += 2 {
		name, ok := kv[i].(string)
		if !ok {
			panic(fmt.Sprintf("specs: parameter name %v is not a string", kv[i]))
		}
		req = add(req, name, kv[i+1])
	}
	return req
}

// EnvelopeFields is a response's envelope as read without asserting anything.
type EnvelopeFields struct {
	// Success is whether result is "success".
	Success bool
	// Code and Msg are those of an error.
	Code, Msg string
}

// Envelope reads a response's envelope without asserting anything: whether it is a success,
// and the code and msg of an error.
func Envelope(r *httpexpect.Response) EnvelopeFields {
	var body struct {
		Result string `json:"result"`
		Code   string `json:"code"`
		Msg    string `json:"msg"`
	}
	if json.Unmarshal([]byte(r.Body().Raw()), &body) != nil {
		return EnvelopeFields{}
	}
	return EnvelopeFields{Success: body.Result == "success", Code: body.Code, Msg: body.Msg}
}

// GetAs sends GET path (with one {id} path argument) as u, with query parameters as name,
// value pairs.
func GetAs(u harness.User, path string, id int, query ...any) *httpexpect.Response {
	return WithQuery(harness.Current().As(u).GET(path, id), query...).Expect()
}

// MemberChannel is the setup many specs share: the target, its member, a fresh public channel
// the member is subscribed to, and a fresh topic name with the given prefix.
func MemberChannel(topicPrefix string) (t *harness.Target, member harness.User, ch harness.Channel, topic string) {
	t = harness.Current()
	member = t.User(harness.Member)
	return t, member, t.NewChannel(harness.Public, member), harness.UniqueName(topicPrefix)
}

// SendForm sends method path as u with form fields given as name, value pairs; id fills the
// path's {id} (nil for a path without one).
func SendForm(u harness.User, method, path string, id any, kv ...any) *httpexpect.Response {
	var args []any
	if id != nil {
		args = append(args, id)
	}
	return WithForm(harness.Current().As(u).Request(method, path, args...), kv...).Expect()
}

// JSONText is v as JSON text, to find a name in a value whose shape the document leaves open.
func JSONText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
