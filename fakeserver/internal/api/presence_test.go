package api_test

// GET /users/{user_id_or_email}/presence and GET /realm/presence: the legacy presence format
// the real server gives API clients.

import (
	"net/http"
	"testing"
)

func TestPresenceRoutes(t *testing.T) {
	ts := newServer(t)
	start := float64(defaultFixture.Realm.StartTime)
	requireSuccess(t, "report", post(t, ts.URL, memberAuth, "/api/v1/users/me/presence", "status", "active"))
	// The email escaped (%40) names the same user: the real server routes the decoded path.
	for _, who := range []string{"4", "member@chat.example.test", "member%40chat.example.test"} {
		env := requireSuccess(t, "presence of "+who, get(t, ts.URL, guestAuth, "/api/v1/users/"+who+"/presence", ""))
		if got := canonical(env["presence"]); got != canonical(map[string]any{
			"aggregated": map[string]any{"status": "active", "timestamp": start},
			"website":    map[string]any{"status": "active", "timestamp": start},
		}) {
			t.Errorf("presence of %s: %s", who, got)
		}
	}
	env := requireSuccess(t, "realm presence", get(t, ts.URL, guestAuth, "/api/v1/realm/presence", ""))
	member, _ := env["presences"].(map[string]any)["member@chat.example.test"].(map[string]any)
	if env["server_timestamp"] != start || member["aggregated"] == nil || len(env["presences"].(map[string]any)) != 1 {
		t.Errorf("realm presence %v", env)
	}
	requireSuccess(t, "advance", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/clock", body: formBody("advance", "141"), contentType: formType}))
	env = requireSuccess(t, "presence later", get(t, ts.URL, guestAuth, "/api/v1/users/4/presence", ""))
	if agg := env["presence"].(map[string]any)["aggregated"].(map[string]any); agg["status"] != "offline" {
		t.Errorf("aggregated %v 141 s after the last report, want offline", agg)
	}
}

func TestRealmEmojiOfARealmWithout(t *testing.T) {
	ts := newServer(t)
	if env := requireSuccess(t, "emoji", get(t, ts.URL, memberAuth, "/api/v1/realm/emoji", "")); canonical(env["emoji"]) != "{}" {
		t.Errorf("emoji %v, want an empty object", env["emoji"])
	}
}
