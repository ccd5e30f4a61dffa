package harness

import (
	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
)

// Client is an httpexpect client of the target's API (base URL
// <target>/api/v1) that authenticates as User. Every request names the spec
// that sends it (SpecHeader, User-Agent) and every exchange is written,
// credentials redacted, to the spec's GinkgoWriter output.
type Client struct {
	*httpexpect.Expect
	// User is who the client authenticates as; zero for Anonymous and
	// WithBasicAuth clients.
	User User
}

// As returns a client authenticated as u: a cast member (User) or a user the
// spec created itself.
func (t *Target) As(u User) *Client {
	return &Client{Expect: t.expect(t.URL+"/api/v1", &basicAuth{u.Email, u.APIKey}), User: u}
}

// Anonymous returns a client that sends no credentials.
func (t *Target) Anonymous() *Client {
	return &Client{Expect: t.expect(t.URL+"/api/v1", nil)}
}

// WithBasicAuth returns a client that sends exactly these Basic
// credentials, for authentication specs (wrong key, unknown email, …).
func (t *Target) WithBasicAuth(user, pass string) *Client {
	return &Client{Expect: t.expect(t.URL+"/api/v1", &basicAuth{user, pass})}
}

// Fake returns a client of the fake's control API (base URL = the target
// URL, no /api/v1, no credentials). Only specs that declared the capability
// they use (NeedCapability) may call it; without any capability it fails
// the spec, because a spec reaching it would break on a real server.
func (t *Target) Fake() *httpexpect.Expect {
	ginkgo.GinkgoHelper()
	if len(t.Capabilities) == 0 {
		ginkgo.Fail("harness: Fake() called but the target has no control API; call NeedCapability first")
	}
	return t.expect(t.URL, nil)
}

// basicAuth is a pair of HTTP Basic credentials.
type basicAuth struct{ user, pass string }

// expect builds an httpexpect instance for baseURL.
func (t *Target) expect(baseURL string, auth *basicAuth) *httpexpect.Expect {
	reporter := t.Reporter
	if reporter == nil {
		reporter = ginkgoReporter{}
	}
	e := httpexpect.WithConfig(httpexpect.Config{
		BaseURL: baseURL,
		Client:  t.httpClient(),
		AssertionHandler: &assertionHandler{httpexpect.DefaultAssertionHandler{
			Reporter: reporter,
			// The exchange is already in the spec's output through the printer,
			// redacted; the formatter must not repeat it with the raw
			// Authorization header.
			Formatter: &httpexpect.DefaultFormatter{
				DisableRequests:  true,
				DisableResponses: true,
				ColorMode:        httpexpect.ColorModeNever,
			},
		}},
		Printers: []httpexpect.Printer{exchangePrinter{out: t.logWriter}},
	})
	return e.Builder(func(r *httpexpect.Request) {
		r.WithHeader("User-Agent", userAgent())
		r.WithHeader(SpecHeader, specName())
		if auth != nil {
			r.WithBasicAuth(auth.user, auth.pass)
		}
	})
}

// FilesAs returns a client of the server's URLs outside /api/v1 (the uploaded files the API
// hands out), authenticated as u with the API's HTTP Basic credentials.
func (t *Target) FilesAs(u User) *Client {
	return &Client{Expect: t.expect(t.URL, &basicAuth{u.Email, u.APIKey}), User: u}
}
