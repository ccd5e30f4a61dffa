package api_test

// The control API's protection: off, or behind a bearer token, or (without a token) only for
// requests addressed to this machine; state-changing requests no cross-site page could send;
// and a configuration that never shows the JWT key.

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
)

// controlCase is one control request with the headers a client chose.
type controlCase struct {
	name    string
	method  string
	path    string
	host    string // Host header; "" for the server's address
	headers map[string]string
	status  int
}

func runControlCases(t *testing.T, ts *fakeserver.TestServer, cases []controlCase) {
	t.Helper()
	for _, c := range cases {
		req, err := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(""))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.headers {
			req.Header.Set(k, v)
		}
		if c.host != "" {
			req.Host = c.host
		}
		res, err := httpClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		page := c.status == http.StatusOK && (c.path == "/_fake/" || strings.HasPrefix(c.path, "/_fake/ui")) // the inspector is HTML
		if res.StatusCode != c.status || page != strings.Contains(res.Header.Get("Content-Type"), "text/html") ||
			!page && !strings.Contains(string(body), `"result":`) {
			t.Errorf("%s: %d %.300s, want %d (in the JSON envelope unless the inspector's page)", c.name, res.StatusCode, body, c.status)
		}
	}
}

func TestControlAPIProtection(t *testing.T) {
	spec := map[string]string{fakeserver.SpecHeader: "test"}
	t.Run("off", func(t *testing.T) {
		ts := fakeserver.NewTestServer(fakeserver.WithoutControl())
		defer ts.Close()
		runControlCases(t, ts, []controlCase{
			{name: "health", method: "GET", path: "/_fake/health", status: 404},
			{name: "reset", method: "POST", path: "/_fake/reset", headers: spec, status: 404},
			{name: "the API still answers", method: "GET", path: "/api/v1/server_settings", status: 200},
		})
	})
	t.Run("token", func(t *testing.T) {
		ts := fakeserver.NewTestServer(fakeserver.WithControlToken("s3cret"))
		defer ts.Close()
		runControlCases(t, ts, []controlCase{
			{name: "no token", method: "GET", path: "/_fake/health", status: 401},
			{name: "wrong token", method: "GET", path: "/_fake/config", headers: map[string]string{"Authorization": "Bearer nope"}, status: 401},
			{name: "Basic instead", method: "POST", path: "/_fake/reset", headers: map[string]string{"Authorization": basicAuth(t, "owner"), "X-A": "b"}, status: 401},
			{name: "token", method: "GET", path: "/_fake/config", headers: map[string]string{"Authorization": "Bearer s3cret"}, status: 200},
			{name: "token, any host name", method: "POST", path: "/_fake/reset", host: "fake.internal:9991", headers: map[string]string{"Authorization": "Bearer s3cret"}, status: 200},
		})
	})
	t.Run("no token", func(t *testing.T) {
		ts := newServer(t)
		json := map[string]string{"Content-Type": "application/json"}
		runControlCases(t, ts, []controlCase{
			{name: "read", method: "GET", path: "/_fake/health", status: 200},
			{name: "localhost", method: "GET", path: "/_fake/clock", host: "localhost", status: 200},
			{name: "a rebound domain name", method: "GET", path: "/_fake/config", host: "attacker.example:9991", status: 403},
			{name: "a rebound domain name, same origin", method: "POST", path: "/_fake/reset", host: "attacker.example",
				headers: map[string]string{"Origin": "http://attacker.example", fakeserver.SpecHeader: "x"}, status: 403},
			{name: "a form post", method: "POST", path: "/_fake/reset", headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 403},
			{name: "a text/plain post", method: "POST", path: "/_fake/clock", headers: map[string]string{"Content-Type": "text/plain"}, status: 403},
			{name: "another origin", method: "POST", path: "/_fake/reset", headers: map[string]string{"Origin": "http://evil.example", fakeserver.SpecHeader: "x"}, status: 403},
			{name: "Sec-Fetch-Site cross-site", method: "PATCH", path: "/_fake/config", headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, status: 403},
			{name: "the suite's header", method: "POST", path: "/_fake/reset", headers: spec, status: 200},
			{name: "JSON", method: "POST", path: "/_fake/reset", headers: json, status: 200},
			{name: "delete the journal from a form", method: "DELETE", path: "/_fake/journal", status: 403},
		})
	})
}

// TestConfigHidesJWTKey: GET and PATCH /_fake/config show whether a key is set, never the key;
// fixture_jwt_key restores the fixture's.
func TestConfigHidesJWTKey(t *testing.T) {
	ts := newServer(t)
	config := func(res response) map[string]any {
		t.Helper()
		if strings.Contains(string(res.body), defaultJWTKey) || strings.Contains(string(res.body), "spec-key") {
			t.Errorf("the configuration shows the JWT key: %s", res)
		}
		cfg, _ := requireSuccess(t, "config", res)["config"].(map[string]any)
		if _, shown := cfg["jwt_key"]; shown {
			t.Errorf("jwt_key shown: %v", cfg)
		}
		return cfg
	}
	patchConfig := func(kv ...string) map[string]any {
		return config(do(t, ts.URL, request{method: http.MethodPatch, path: "/_fake/config", body: formBody(kv...), contentType: formType}))
	}
	if cfg := config(get(t, ts.URL, "", "/_fake/config", "")); cfg["jwt_key_set"] != true {
		t.Errorf("fixture key: jwt_key_set %v", cfg["jwt_key_set"])
	}
	if cfg := patchConfig("jwt_key", ""); cfg["jwt_key_set"] != false {
		t.Errorf("cleared key: jwt_key_set %v", cfg["jwt_key_set"])
	}
	patchConfig("jwt_key", "spec-key", "jwt_algorithm", "HS512")
	if cfg := patchConfig("fixture_jwt_key", "true"); cfg["jwt_key_set"] != true || cfg["jwt_algorithm"] != "HS256" {
		t.Errorf("restored: %v", cfg)
	}
	requireSuccess(t, "the fixture's key works again", jwtFetch(t, ts.URL, "token", jwtFor("member@chat.example.test")))
}

// inspectorSecret reads the secret the inspector page is given, as a browser that opened the
// page from its address bar sees it.
func inspectorSecret(t *testing.T, base string) string {
	t.Helper()
	res := do(t, base, request{method: http.MethodGet, path: "/_fake/ui", headers: map[string]string{"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate"}})
	m := regexp.MustCompile(`<meta name="inspector" content="([0-9a-f]{32})">`).FindSubmatch(res.body)
	if res.status != http.StatusOK || m == nil {
		t.Fatalf("the inspector page from the address bar: HTTP %d, no secret in it", res.status)
	}
	return string(m[1])
}

// TestControlAPIAnswersNoPageButTheInspector: a page of the fake's own origin (as an uploaded
// file shown in a browser would be) gets nothing from the control API, read or write; the
// inspector, with the secret its page carries, gets everything; clients outside a browser are
// unaffected.
func TestControlAPIAnswersNoPageButTheInspector(t *testing.T) {
	ts := newServer(t)
	secret := inspectorSecret(t, ts.URL)
	sameOrigin := func(extra ...string) map[string]string {
		h := map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors", "Content-Type": "application/json"}
		for i := 0; i+1 < len(extra); i += 2 {
			h[extra[i]] = extra[i+1]
		}
		return h
	}
	origin := "http://" + strings.TrimPrefix(ts.URL, "http://")
	runControlCases(t, ts, []controlCase{
		{name: "a page reads the journal", method: "GET", path: "/_fake/journal", headers: sameOrigin(), status: 403},
		{name: "a page reads the configuration", method: "GET", path: "/_fake/config", headers: sameOrigin(), status: 403},
		{name: "a page changes the configuration", method: "PATCH", path: "/_fake/config?jwt_key=x", headers: sameOrigin(), status: 403},
		{name: "a page with a wrong secret", method: "POST", path: "/_fake/reset", headers: sameOrigin(fakeserver.InspectorHeader, strings.Repeat("0", 32)), status: 403},
		{name: "a page of an opaque origin (a sandboxed file)", method: "POST", path: "/_fake/clock", headers: map[string]string{"Origin": "null", "Content-Type": "application/json"}, status: 403},
		{name: "a same-origin page without Sec-Fetch headers", method: "POST", path: "/_fake/reset", headers: map[string]string{"Origin": origin, "Content-Type": "application/json"}, status: 403},
		{name: "a page frames or opens the inspector", method: "GET", path: "/_fake/ui", headers: map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate"}, status: 403},
		{name: "the inspector moves the clock", method: "POST", path: "/_fake/clock?advance=60", headers: sameOrigin(fakeserver.InspectorHeader, secret, "Origin", origin), status: 200},
		{name: "the inspector reads a section", method: "GET", path: "/_fake/inspect?section=journal&method=GET", headers: sameOrigin(fakeserver.InspectorHeader, secret), status: 200},
		{name: "a page reads the inspector's page and its secret", method: "GET", path: "/_fake/", headers: sameOrigin(), status: 403},
		{name: "a person opens the journal", method: "GET", path: "/_fake/journal", headers: map[string]string{"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate"}, status: 200},
		{name: "a client outside a browser", method: "PATCH", path: "/_fake/config?push_configured=true", headers: map[string]string{fakeserver.SpecHeader: "x"}, status: 200},
	})
	t.Run("with a control token", func(t *testing.T) {
		ts := fakeserver.NewTestServer(fakeserver.WithControlToken("s3cret"))
		defer ts.Close()
		runControlCases(t, ts, []controlCase{
			{name: "the inspector page, which holds no data, from the address bar", method: "GET", path: "/_fake/", headers: map[string]string{"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate"}, status: 200},
			{name: "the inspector's data without the token", method: "GET", path: "/_fake/inspect?section=users", headers: sameOrigin(fakeserver.InspectorHeader, inspectorSecret(t, ts.URL)), status: 401},
			{name: "the inspector's request with the bearer token", method: "POST", path: "/_fake/clock?advance=60", headers: sameOrigin("Authorization", "Bearer s3cret"), status: 200},
		})
	})
}

// TestControlAPICannotBeFramed: no site can show the inspector, or any control reply, in a
// frame.
func TestControlAPICannotBeFramed(t *testing.T) {
	ts := newServer(t)
	for _, path := range []string{"/_fake/ui", "/_fake/journal", "/_fake/nothing"} {
		res := get(t, ts.URL, "", path, "")
		if res.header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: X-Frame-Options %q, want DENY", path, res.header.Get("X-Frame-Options"))
		}
	}
	if csp := get(t, ts.URL, "", "/_fake/ui", "").header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("the inspector's Content-Security-Policy %q lets other sites frame it", csp)
	}
}
