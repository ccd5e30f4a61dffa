package harness

import (
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
)

// MismatchEntry names the report entry in which a failed httpexpect assertion leaves what it
// found: the field it checked, the rule, the value expected and the value seen. The reports
// name a finding by it, as a user writes a bug report ("code: "bad_request", expected
// "BAD_REQUEST""), where the assertion's chain says Value("code").String().IsEqual().
const MismatchEntry = "chatconform mismatch"

// Mismatch is what a failed assertion found, as data.
type Mismatch struct {
	// Field is the checked value's path in the reply: "msg", "topics[].max_id"; an array's
	// index is left out, so the same field of every element is one field. Empty for the reply
	// itself (not JSON, not an object).
	Field string `json:"field"`
	// Check is the assertion's rule: "present", "equal", "integer", "type number", ….
	Check string `json:"check"`
	// Expected and Actual are the values, as compact JSON (empty where the rule has none:
	// "missing" is said by Check "present").
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Requirement, when set, is the requirement the check belongs to whatever spec made it: the
	// envelope's checks every spec makes through Success or FailsWith (CONV-05, CONV-07).
	Requirement string `json:"requirement,omitempty"`
}

// envelopeRequirements are the requirements of the envelope helpers' checks: a failure inside
// them is the envelope's, not the operation's the spec checks. FailsWith's check of the code
// it was given is the spec's own, and is left out (envelopeOwnCheck).
var envelopeRequirements = map[string]string{
	"Success":     "CONV-05",
	"BareSuccess": "CONV-05",
	"FailsWith":   "CONV-07",
	"Fails":       "CONV-07",
}

// DocumentedCodes are the error codes the document's errors table names.
var DocumentedCodes = []string{"BAD_REQUEST", "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", "STREAM_WILDCARD_MENTION_NOT_ALLOWED",
	"TOPIC_WILDCARD_MENTION_NOT_ALLOWED", "PUSH_SERVICE_NOT_CONFIGURED", "UNAUTHORIZED_PRINCIPAL", "UNAUTHORIZED", "PERMISSION_DENIED"}

// mismatchOf reads what a failed assertion found out of httpexpect's context and failure.
func mismatchOf(ctx *httpexpect.AssertionContext, failure *httpexpect.AssertionFailure) Mismatch {
	m := Mismatch{Field: fieldPath(ctx.Path), Check: checkOf(ctx.Path, failure)}
	if m.Check != "present" {
		m.Actual = valueText(failure.Actual)
	}
	m.Expected = valueText(failure.Expected)
	if m.Check == "present" || strings.HasPrefix(m.Check, "type ") {
		m.Expected = "" // the key's name, the types' list: the rule says it
	}
	if helper := envelopeHelper(); helper != "" && envelopesOwn(helper, m) {
		m.Requirement = envelopeRequirements[helper]
	}
	return m
}

// envelopesOwn says whether a failed check of an envelope helper is the envelope's (a success
// without msg "", an error without a code, a result that is neither "success" nor "error"),
// rather than the operation's the spec checks through it: a refusal where a success was due,
// the wrong code, a reply that is not JSON.
func envelopesOwn(helper string, m Mismatch) bool {
	switch m.Field {
	case "msg":
		return true
	case "code":
		return !(helper == "FailsWith" && m.Check == "equal")
	case "result":
		return m.Check != "equal" || (m.Actual != `"success"` && m.Actual != `"error"`)
	}
	return false
}

// noteMismatch leaves the mismatch in the running spec's report entries, for the reports.
func noteMismatch(m Mismatch) {
	if !inSpec() {
		return
	}
	data, err := json.Marshal(m)
	if err != nil {
		return
	}
	ginkgo.AddReportEntry(MismatchEntry, ginkgo.ReportEntryVisibilityNever, string(data))
}

// MismatchOf decodes a report entry's value written by noteMismatch.
func MismatchOf(value string) (Mismatch, bool) {
	var m Mismatch
	if err := json.Unmarshal([]byte(strings.Trim(value, "`")), &m); err != nil || m.Check == "" {
		return Mismatch{}, false
	}
	return m, true
}

var (
	objectKey  = regexp.MustCompile(`^(?:Value|Iter|Every|Filter|Find|FindAll)[\[(]("(?:[^"\\]|\\.)*")[\])]$`)
	arrayIndex = regexp.MustCompile(`^(?:Value|Iter|Every|Filter|Find|FindAll)[\[(][0-9]+[\])]$|^(?:First|Last)\(\)$`)
)

// fieldPath turns an assertion's chain into the checked value's path: Value("topics") then
// Value(0) then Value("max_id") is topics[].max_id.
func fieldPath(chain []string) string {
	var b strings.Builder
	for _, step := range chain {
		switch {
		case objectKey.MatchString(step):
			var key string
			if err := json.Unmarshal([]byte(objectKey.FindStringSubmatch(step)[1]), &key); err != nil {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(key)
		case arrayIndex.MatchString(step):
			b.WriteString("[]")
		}
	}
	return b.String()
}

// checks name the rules by the chain's last step where the failure type alone does not say.
var checks = map[string]string{
	"IsInt()": "integer", "IsUint()": "integer ≥ 0", "IsFinite()": "finite number",
	"Number()": "type number", "String()": "type string", "Boolean()": "type boolean", "Object()": "type object",
	"Array()": "type array", "IsNull()": "null", "NotNull()": "not null", "JSON()": "JSON",
}

// checkOf names the failed assertion's rule.
func checkOf(chain []string, failure *httpexpect.AssertionFailure) string {
	last := ""
	if len(chain) > 0 {
		last = chain[len(chain)-1]
	}
	switch failure.Type {
	case httpexpect.AssertContainsKey:
		return "present"
	case httpexpect.AssertNotContainsKey:
		return "absent"
	case httpexpect.AssertEqual:
		return "equal"
	case httpexpect.AssertNotEqual:
		return "not equal"
	case httpexpect.AssertEmpty:
		return "empty"
	case httpexpect.AssertNotEmpty:
		return "not empty"
	case httpexpect.AssertLt, httpexpect.AssertLe, httpexpect.AssertGt, httpexpect.AssertGe, httpexpect.AssertInRange:
		return "in range"
	case httpexpect.AssertContainsElement, httpexpect.AssertContainsSubset:
		return "contains"
	case httpexpect.AssertBelongs:
		return "one of"
	case httpexpect.AssertMatchRegexp:
		return "matches"
	}
	if c, ok := checks[last]; ok {
		return c
	}
	if i := strings.IndexByte(last, '('); i > 0 {
		return last[:i]
	}
	return failure.Type.String()
}

// valueText is a value as compact JSON, clipped.
func valueText(v *httpexpect.AssertionValue) string {
	if v == nil || v.Value == nil {
		return ""
	}
	val := v.Value
	if list, ok := val.(httpexpect.AssertionList); ok {
		val = []any(list)
	}
	data, err := json.Marshal(val)
	if err != nil {
		return clip(fmt.Sprint(val), 80)
	}
	return clip(string(data), 80)
}

// envelopeHelper is the envelope helper (Success, FailsWith, …) the failing assertion was made
// in, "" when none.
func envelopeHelper() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		name, ok := strings.CutPrefix(f.Function, "github.com/chatconform/chatconform/harness.")
		if ok && slices.Contains(envelopeHelpers, name) {
			return name
		}
		if !more {
			return ""
		}
	}
}

var envelopeHelpers = []string{"Success", "BareSuccess", "FailsWith", "Fails"}
