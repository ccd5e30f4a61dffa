package harness

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/chatconform/chatconform/internal/secrets"
)

// secretFields are the Go struct fields holding credentials, as Gomega prints structs.
var secretFields = []string{"APIKey", "Password", "JWTKey"}

var (
	// "api_key": "…" in JSON bodies and in formatted failure messages, where Gomega puts a
	// type before the value ("api_key": <string>"…").
	jsonSecret = regexp.MustCompile(`"(` + strings.Join(secrets.Params, "|") + `)"(\s*:\s*(?:<[^>]+>\s*)?)"((?:[^"\\]|\\.)*)"`)
	// APIKey: "…" in printed Go structs.
	fieldSecret = regexp.MustCompile(`\b(` + strings.Join(secretFields, "|") + `)(:\s*(?:<[^>]+>\s*)?)"((?:[^"\\]|\\.)*)"`)
	// api_key=… in form bodies and query strings, also quoted or in parentheses.
	formSecret = regexp.MustCompile(`(^|[?&\s("'])(` + strings.Join(secrets.Params, "|") + `)=([^&\s"')]*)`)
)

// RedactText hides credentials in free text (bodies, query strings,
// failure messages): the values of the credentials secrets.Params names,
// whether JSON-encoded or form-encoded.
func RedactText(s string) string {
	// Each pattern needs one of its names in the text: a large output without any (a failing
	// run's pages) skips the regular expressions, which cost tens of nanoseconds a byte.
	params, fields := mentionsAny(s, secrets.Params), mentionsAny(s, secretFields)
	if params {
		s = jsonSecret.ReplaceAllStringFunc(s, func(m string) string {
			p := jsonSecret.FindStringSubmatch(m)
			return `"` + p[1] + `"` + p[2] + `"` + RedactSecret(p[3]) + `"`
		})
	}
	if fields {
		s = fieldSecret.ReplaceAllStringFunc(s, func(m string) string {
			p := fieldSecret.FindStringSubmatch(m)
			return p[1] + p[2] + `"` + RedactSecret(p[3]) + `"`
		})
	}
	if params {
		s = formSecret.ReplaceAllStringFunc(s, func(m string) string {
			p := formSecret.FindStringSubmatch(m)
			return p[1] + p[2] + "=" + RedactSecret(p[3])
		})
	}
	return s
}

// mentionsAny reports whether s contains one of names.
func mentionsAny(s string, names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.Contains(s, n) })
}

// isSecretParam reports whether a form or query parameter holds a credential.
func isSecretParam(name string) bool {
	return slices.Contains(secrets.Params, name)
}

// redactAuthorization keeps the Basic username (useful to see who sent a
// request) and hides the key.
func redactAuthorization(v string) string {
	scheme, cred, ok := strings.Cut(v, " ")
	if !ok || !strings.EqualFold(scheme, "basic") {
		return "****"
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred))
	if err != nil {
		return scheme + " ****"
	}
	user, pass, ok := strings.Cut(string(raw), ":")
	if !ok {
		return scheme + " ****"
	}
	return scheme + " " + user + ":" + RedactSecret(pass)
}

// redactHeader returns the header value as it may be shown.
func redactHeader(name, value string) string {
	switch http.CanonicalHeaderKey(name) {
	case "Authorization", "Proxy-Authorization":
		return redactAuthorization(value)
	case "Cookie", "Set-Cookie":
		return "****"
	}
	return value
}

// RedactingFail is ginkgo.Fail with credentials redacted from the message: register it as the Gomega
// fail handler, so that no failure printed to the console, JUnit or the reports shows a key.
func RedactingFail(message string, callerSkip ...int) {
	skip := 1
	if len(callerSkip) > 0 {
		skip += callerSkip[0]
	}
	ginkgo.Fail(RedactText(message), skip)
}

// GomegaString prints a user in failure messages with the API key redacted.
func (u User) GomegaString() string {
	return fmt.Sprintf("{Role: %q, ID: %d, Email: %q, FullName: %q, APIKey: %q}", u.Role, u.ID, u.Email, u.FullName, RedactSecret(u.APIKey))
}

// GomegaString prints credentials in failure messages with the API key redacted.
func (c Credentials) GomegaString() string {
	return fmt.Sprintf("{Email: %q, APIKey: %q}", c.Email, RedactSecret(c.APIKey))
}
