package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
)

// TestJournalRedactsCredentials: whatever carries a credential, a request's query (by the
// parameter's decoded name) or form, or a reply (the API keys a login or a new bot hands
// out), the journal keeps the rest of the exchange and never the secret itself.
func TestJournalRedactsCredentials(t *testing.T) {
	owner, _ := defaultFixture.UserByRole("owner")
	for _, tc := range []struct {
		name   string
		req    request
		secret string // what must not appear in the entry
		keep   string // what the entry must still show
		status int
	}{
		{"password login, the key in the reply", request{method: http.MethodPost, path: "/api/v1/fetch_api_key",
			body: formBody("username", owner.Email, "password", owner.Password), contentType: formType}, owner.APIKey, `"email":"` + owner.Email, 200},
		{"password in the query", request{method: http.MethodPost, path: "/api/v1/fetch_api_key",
			query: "username=" + owner.Email + "&password=" + owner.Password}, owner.Password, "username=" + owner.Email, 200},
		{"a percent-encoded parameter name", request{method: http.MethodPost, path: "/api/v1/fetch_api_key",
			query: "username=" + owner.Email + "&pass%77ord=" + owner.Password}, owner.Password, "pass%77ord=****", 200},
		{"a name that does not decode", request{method: http.MethodPost, path: "/api/v1/fetch_api_key",
			query: "username=" + owner.Email + "&pass%zzord=" + owner.Password}, owner.Password, "username=" + owner.Email, 400},
		{"an API key in the query", request{method: http.MethodGet, path: "/api/v1/users/me", query: "api%5Fkey=" + owner.APIKey}, owner.APIKey, "api%5Fkey=****", 401},
		{"a new bot's key", request{method: http.MethodPost, path: "/api/v1/bots", auth: ownerAuth,
			body: formBody("full_name", "Journal Bot", "short_name", "journal"), contentType: formType}, "", `"user_id":`, 200},
		{"a password change", request{method: http.MethodPatch, path: "/api/v1/settings", auth: ownerAuth,
			body: formBody("old_password", owner.Password, "new_password", "journal-secret-9"), contentType: formType}, "journal-secret-9", "old_password", 200},
		{"a password change, the old one", request{method: http.MethodPatch, path: "/api/v1/settings", auth: ownerAuth,
			body: formBody("old_password", owner.Password, "new_password", "journal-secret-9"), contentType: formType}, owner.Password, "new_password", 200},
		{"a JWT login", request{method: http.MethodPost, path: "/api/v1/jwt/fetch_api_key",
			body: formBody("token", jwtFor(owner.Email)), contentType: formType}, owner.APIKey, `"email":"` + owner.Email, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newServer(t)
			res := do(t, ts.URL, tc.req)
			secret := tc.secret
			if secret == "" { // the bot's key is known only from the reply
				secret, _ = res.env["api_key"].(string)
			}
			if res.status != tc.status || secret == "" {
				t.Fatalf("HTTP %d %s", res.status, res)
			}
			entries := ts.Server.Journal(fakeserver.JournalFilter{Path: tc.req.path})
			if len(entries) != 1 {
				t.Fatalf("%d journal entries for %s", len(entries), tc.req.path)
			}
			e := entries[0]
			shown := e.Query + " " + e.Response
			for k, v := range e.Params {
				shown += " " + k + "=" + v
			}
			if strings.Contains(shown, secret) {
				t.Errorf("the journal shows the credential %q: %s", secret, shown)
			}
			if !strings.Contains(shown, tc.keep) {
				t.Errorf("the journal lost %q: %s", tc.keep, shown)
			}
		})
	}
}
