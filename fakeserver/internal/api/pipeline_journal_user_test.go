package api_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
)

// TestJournalUserIsTheClaimedUsername: an entry's user is the username of the request's HTTP
// Basic credentials as Request.BasicAuth reads them, whether or not they authenticate, whether
// or not the route asks for them: the journal takes it from authentication where that decoded
// the same bytes, and reads the header itself elsewhere, with the same result.
func TestJournalUserIsTheClaimedUsername(t *testing.T) {
	owner, _ := defaultFixture.UserByRole("owner")
	basic := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	creds := basic(owner.Email + ":" + owner.APIKey)
	for _, tc := range []struct {
		name, path, header string
		status             int
		want               string
	}{
		{"credentials that authenticate", "/api/v1/users/me", "Basic " + creds, 200, owner.Email},
		{"a wrong key", "/api/v1/users/me", "Basic " + basic(owner.Email+":wrong"), 401, owner.Email},
		{"an unknown user", "/api/v1/users/me", "Basic " + basic("nobody@example.test:key"), 401, "nobody@example.test"},
		{"the scheme in lower case", "/api/v1/users/me", "basic " + creds, 200, owner.Email},
		{"a public route", "/api/v1/server_settings", "Basic " + creds, 200, owner.Email},
		{"an unknown route", "/api/v1/no_such_route", "Basic " + creds, 404, owner.Email},
		{"no colon", "/api/v1/users/me", "Basic " + basic(owner.Email), 401, ""},
		{"not base64", "/api/v1/users/me", "Basic %%%", 401, ""},
		// Authentication trims the spaces; Request.BasicAuth, which the journal follows, does not.
		{"two spaces after the scheme", "/api/v1/users/me", "Basic  " + creds, 200, ""},
		{"another scheme", "/api/v1/users/me", "Bearer " + creds, 400, ""},
		{"no credentials", "/api/v1/users/me", "", 401, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeserver.New()
			req := httptest.NewRequest(http.MethodGet, tc.path, nil)
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("HTTP %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			entries := srv.Journal(fakeserver.JournalFilter{Path: tc.path})
			if len(entries) != 1 {
				t.Fatalf("%d journal entries for %s, want 1", len(entries), tc.path)
			}
			if entries[0].User != tc.want {
				t.Errorf("journal user %q, want %q", entries[0].User, tc.want)
			}
		})
	}
}
