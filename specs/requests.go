package specs

import (
	"encoding/json"
	"fmt"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// withQuery adds query parameters given as name, value pairs to req, in the order the
// document lists them, which keeps a spec's call close to its text.
func withQuery(req *httpexpect.Request, kv ...any) *httpexpect.Request {
	return withPairs(req, (*httpexpect.Request).WithQuery, kv)
}

// withForm adds form fields given as name, value pairs to req.
func withForm(req *httpexpect.Request, kv ...any) *httpexpect.Request {
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

// envelope reads a response's envelope without asserting anything: whether it is a success,
// and the code and msg of an error.
func envelope(r *httpexpect.Response) (success bool, code, msg string) {
	var body struct {
		Result string `json:"result"`
		Code   string `json:"code"`
		Msg    string `json:"msg"`
	}
	if json.Unmarshal([]byte(r.Body().Raw()), &body) != nil {
		return false, "", ""
	}
	return body.Result == "success", body.Code, body.Msg
}

// getAs sends GET path (with one {id} path argument) as role, with query parameters as
// name, value pairs.
func getAs(role harness.Role, path string, id int, query ...any) *httpexpect.Response {
	return withQuery(harness.Current().As(harness.Current().User(role)).GET(path, id), query...).Expect()
}

// memberChannel is the setup many specs share: the target, its member, a fresh public channel
// the member is subscribed to, and a fresh topic name with the given prefix.
func memberChannel(topicPrefix string) (*harness.Target, harness.User, harness.Channel, string) {
	t := harness.Current()
	return t, t.User(harness.Member), t.NewChannel(harness.Public, t.User(harness.Member)), harness.UniqueName(topicPrefix)
}

// sendForm sends method path as u with form fields given as name, value pairs; id fills the
// path's {id} (nil for a path without one).
func sendForm(u harness.User, method, path string, id any, kv ...any) *httpexpect.Response {
	var args []any
	if id != nil {
		args = append(args, id)
	}
	return withForm(harness.Current().As(u).Request(method, path, args...), kv...).Expect()
}
