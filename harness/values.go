package harness

import (
	"encoding/json"
	"time"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
)

// UnusedID is an id no message, channel, user or other object of a target
// has, for "does not exist" specs. It fits in 32 bits, so a server that
// stores ids as int32 still parses it.
const UnusedID = 999_999_999

// WrongAPIKey is well-formed (32 letters and digits) but belongs to nobody,
// so authentication fails on the key itself rather than on its format.
const WrongAPIKey = "chatconformWrongApiKey0000000000"

// timestampSlack is how far a "now" timestamp may be from the target's clock
// it is compared with: the time between the request that made it and the
// check, which waits for a rate limit (up to a minute each) can stretch, and
// the second the offset is measured to. Clock skew is not in it: the offset
// measured at setup corrects for that.
const timestampSlack = 5 * time.Minute

// ExpectTimestampNow asserts that v is an integer UNIX-seconds timestamp
// close to the target's current time (Now): the type the document gives the
// timestamps it calls integer.
func ExpectTimestampNow(v *httpexpect.Value) {
	ginkgo.GinkgoHelper()
	v.Number().IsInt()
	ExpectTimeNow(v)
}

// ExpectTimeNow asserts that v is a number of UNIX seconds close to the
// target's current time (Now), a fraction allowed: for the times the document
// types as number (presence's server_timestamp), which a server may send with
// its fraction of a second. A type the document gives is never narrowed.
func ExpectTimeNow(v *httpexpect.Value) {
	ginkgo.GinkgoHelper()
	now := Current().Now()
	v.Number().InRange(
		float64(now.Add(-timestampSlack).Unix()),
		float64(now.Add(timestampSlack).Unix()))
}

// ExpectStringOrNull asserts that v is a string or null, the type the
// document gives as "string or null".
func ExpectStringOrNull(v *httpexpect.Value) {
	ginkgo.GinkgoHelper()
	if v.Raw() != nil {
		v.String()
	}
}

// IntsOf returns field key of every object in arr as integers, asserting
// each element is an object with an integer there.
func IntsOf(arr *httpexpect.Array, key string) []int {
	ginkgo.GinkgoHelper()
	var out []int
	for _, v := range arr.Iter() {
		out = append(out, int(v.Object().Value(key).Number().IsInt().Raw()))
	}
	return out
}

// StringsOf returns field key of every object in arr, asserting each
// element is an object with a string there.
func StringsOf(arr *httpexpect.Array, key string) []string {
	ginkgo.GinkgoHelper()
	var out []string
	for _, v := range arr.Iter() {
		out = append(out, v.Object().Value(key).String().Raw())
	}
	return out
}

// CreatedID returns the integer id of a success response without asserting anything, so a
// spec can schedule the clean-up of whatever a request created, whether or not it expected
// the request to succeed.
func CreatedID(r *httpexpect.Response) (int, bool) {
	var body struct {
		Result string   `json:"result"`
		ID     *float64 `json:"id"`
	}
	if json.Unmarshal([]byte(r.Body().Raw()), &body) != nil || body.Result != "success" || body.ID == nil {
		return 0, false
	}
	return int(*body.ID), *body.ID == float64(int(*body.ID))
}
