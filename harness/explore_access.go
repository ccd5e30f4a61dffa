package harness

import "net/http"

// HTTPClient is the client the harness itself sends with: the target's certificate settings,
// its control token and the rate-limit retries. chatconform explore sends its own requests
// with it, outside any spec.
func (t *Target) HTTPClient() *http.Client { return t.httpClient() }
