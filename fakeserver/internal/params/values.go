package params

import "net/url"

// FromValues holds parameters that did not come with a request (settings the fake is started
// with), to be read like a request's.
func FromValues(v url.Values) *Params {
	return &Params{values: formOf(v)}
}
