package params

import (
	"net/url"
	"strings"
)

// pairList is a request's parameters as a list of name and value pairs, in the order sent: a
// request carries a handful, which a list holds in one allocation where url.Values took a map
// and a slice per name. A name may come more than once; its values keep their order.
type pairList []pairOf

type pairOf struct {
	name, value string
	// none: the name was given without any value (url.Values holding an empty list), which
	// counts as sent but reads as absent.
	none bool
}

// parseForm parses a query string or a form body as url.ParseQuery does. The usual text, plain
// pairs with valid escapes, is parsed here; anything else (a semicolon, a bad escape, a great
// many pairs) goes to url.ParseQuery, so that its errors, and what it keeps beside them, stay
// exactly url.ParseQuery's.
func parseForm(query string) (pairList, error) {
	if n := strings.Count(query, "&") + 1; n <= maxFastPairs && !strings.Contains(query, ";") {
		f := make(pairList, 0, n)
		ok := true
		for rest := query; rest != "" && ok; {
			var pair string
			pair, rest, _ = strings.Cut(rest, "&")
			if pair == "" {
				continue
			}
			name, value, _ := strings.Cut(pair, "=")
			var err1, err2 error
			name, err1 = url.QueryUnescape(name)
			value, err2 = url.QueryUnescape(value)
			if ok = err1 == nil && err2 == nil; ok {
				f = append(f, pairOf{name: name, value: value})
			}
		}
		if ok {
			return f, nil
		}
	}
	values, err := url.ParseQuery(query)
	return formOf(values), err
}

// maxFastPairs bounds the pairs parseForm parses itself, well below url.ParseQuery's limit.
const maxFastPairs = 256

// formOf is the pairList of url.Values (names in no particular order, each name's values in theirs).
func formOf(values url.Values) pairList {
	if values == nil {
		return nil
	}
	f := make(pairList, 0, len(values))
	for name, vs := range values {
		for _, v := range vs {
			f = append(f, pairOf{name: name, value: v})
		}
		if len(vs) == 0 {
			f = append(f, pairOf{name: name, none: true})
		}
	}
	return f
}

// has tells whether name was sent.
func (f pairList) has(name string) bool {
	for i := range f {
		if f[i].name == name {
			return true
		}
	}
	return false
}

// last is the last value sent for name (false for none).
func (f pairList) last(name string) (string, bool) {
	for i := len(f) - 1; i >= 0; i-- {
		if f[i].name == name {
			return f[i].value, !f[i].none
		}
	}
	return "", false
}

// names yields each name sent once, in the order first sent.
func (f pairList) names(yield func(string) bool) {
	for i := range f {
		if !f[:i].has(f[i].name) && !yield(f[i].name) {
			return
		}
	}
}
