package pipeline

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/internal/secrets"
)

// The journal's redaction: what it keeps of a request's parameters and reply hides the values
// of credentials, named in one list shared with the harness (internal/secrets).

// journalParams decodes a request's parameters, the query's and a form body's as the API takes
// them: one value each, credentials redacted, each name and value cut at max bytes, at most 64.
func journalParams(query string, form []byte, max int) map[string]string {
	out := map[string]string{}
	put := func(k, v string) {
		if len(out) < 64 {
			if secrets.IsParam(k) {
				v = "****"
			}
			out[cut(k, max)] = cut(v, max)
		}
	}
	values, _ := url.ParseQuery(query)
	fromBody, _ := url.ParseQuery(string(form))
	for k, v := range fromBody {
		values[k] = append(values[k], v...)
	}
	for k, v := range values {
		if len(v) > 0 {
			put(k, v[0])
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// redactQuery hides the values of credential parameters in a query string. A name is judged
// decoded, as the API reads it (pass%77ord is the password); one that does not decode is
// hidden too, as what it names cannot be told.
func redactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		name, _, _ := strings.Cut(p, "=")
		if decoded, err := url.QueryUnescape(name); err != nil || secrets.IsParam(decoded) {
			parts[i] = name + "=****"
		}
	}
	return strings.Join(parts, "&")
}

// redactReply hides the string values of credential members of a JSON reply (the API keys of
// POST /fetch_api_key, POST /bots, the JWT fetch), which may be cut short anywhere. A member
// is judged by its decoded name, wherever it stands.
func redactReply(b []byte) []byte {
	var out bytes.Buffer
	last := 0
	for i := 0; i < len(b); {
		if b[i] != '"' {
			i++
			continue
		}
		end := jsonStringEnd(b, i)
		colon := skipJSONSpace(b, end)
		if colon < len(b) && b[colon] == ':' && secretToken(b[i:end]) {
			if v := skipJSONSpace(b, colon+1); v < len(b) && b[v] == '"' {
				out.Write(b[last:v])
				out.WriteString(`"****"`)
				end = jsonStringEnd(b, v)
				last = end
			}
		}
		i = end
	}
	if last == 0 {
		return b // nothing to hide: the caller copies what it keeps
	}
	out.Write(b[last:])
	return out.Bytes()
}

// jsonStringEnd is the index just past the JSON string that opens at b[i], or len(b) for one
// cut short.
func jsonStringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// secretToken is secretParam for a JSON string token (a member's name). A name of plain
// ASCII without escapes, nearly every one, is judged without allocating.
func secretToken(token []byte) bool {
	if len(token) < 2 || bytes.IndexByte(token, '\\') >= 0 {
		return secrets.IsParam(jsonStringValue(token))
	}
	name := token[1 : len(token)-1]
	for _, c := range name {
		if c >= utf8.RuneSelf {
			return secrets.IsParam(jsonStringValue(token))
		}
	}
	for _, secret := range secrets.Params {
		if len(name) == len(secret) && asciiLowerEqual(name, secret) {
			return true
		}
	}
	return false
}

// asciiLowerEqual tells whether b, ASCII, lowered is s.
func asciiLowerEqual(b []byte, s string) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// jsonStringValue decodes a JSON string token ("" for one that does not decode).
func jsonStringValue(token []byte) string {
	if bytes.IndexByte(token, '\\') < 0 && len(token) >= 2 {
		return string(token[1 : len(token)-1])
	}
	var s string
	_ = json.Unmarshal(token, &s)
	return s
}
