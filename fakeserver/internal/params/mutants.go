package params

import (
	"net/url"
	"strings"
)

// plusKept parses a query string as url.PathUnescape would each part: a "+" stays a plus
// instead of standing for a space, the query parsing of a server that decodes paths and
// queries with one function.
func plusKept(raw string) url.Values {
	out := url.Values{}
	for _, pair := range strings.Split(raw, "&") {
		name, value, _ := strings.Cut(pair, "=")
		n, err1 := url.PathUnescape(name)
		v, err2 := url.PathUnescape(value)
		if err1 == nil && err2 == nil && n != "" {
			out[n] = append(out[n], v)
		}
	}
	return out
}
