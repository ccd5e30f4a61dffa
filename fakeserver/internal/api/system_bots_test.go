package api_test

import (
	"fmt"
	"testing"

	"github.com/chatconform/chatconform/fixtures"
)

// The system bots: register's cross_realm_bots lists them by name with the real server's
// fields, GET /users/{id} answers for each (as its own owner, as the real server has them),
// and Welcome Bot's messages come from the ID the list gives it.
func TestSystemBots(t *testing.T) {
	base := newCheckedServer(t)
	owner := requireSuccess(t, "owner", get(t, base, ownerAuth, "/api/v1/users/me", ""))
	bots := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register",
		"fetch_event_types", `["realm_user"]`, "client_gravatar", "true"))["cross_realm_bots"].([]any)
	byName := map[string]map[string]any{}
	for _, tc := range []struct {
		name, email string
		id          int
	}{
		{"Email Gateway", "emailgateway@zulip.com", fixtures.FirstSystemBotID + 1},
		{"Notification Bot", "notification-bot@zulip.com", fixtures.FirstSystemBotID},
		{"Welcome Bot", "welcome-bot@zulip.com", fixtures.FirstSystemBotID + 2},
	} {
		i := len(byName)
		if i >= len(bots) {
			t.Fatalf("cross_realm_bots %v: no %s", bots, tc.name)
		}
		b := bots[i].(map[string]any)
		byName[tc.name] = b
		want := map[string]any{
			"user_id": float64(tc.id), "full_name": tc.name, "email": tc.email, "delivery_email": tc.email,
			"is_bot": true, "bot_type": float64(1), "bot_owner_id": nil, "is_system_bot": true, "role": float64(400),
			"is_active": true, "is_admin": false, "is_owner": false, "is_guest": false, "timezone": "",
			"date_joined": owner["date_joined"],
		}
		for k, v := range want {
			if got, ok := b[k]; !ok || got != v {
				t.Errorf("cross_realm_bots[%d] %s: %v, want %v", i, k, got, v)
			}
		}
		if url, _ := b["avatar_url"].(string); url == "" {
			t.Errorf("%s: avatar_url %v, want a URL even for a client_gravatar client", tc.name, b["avatar_url"])
		}
		// By ID, as any realm user sees it: its owner is itself, its profile has no fields.
		u := requireSuccess(t, tc.name, get(t, base, memberAuth, fmt.Sprintf("/api/v1/users/%d", tc.id), "include_custom_profile_fields=true"))["user"].(map[string]any)
		if u["user_id"] != float64(tc.id) || u["bot_owner_id"] != float64(tc.id) || u["is_system_bot"] != true || u["full_name"] != tc.name || u["profile_data"] != nil {
			t.Errorf("GET /users/%d: %v", tc.id, u)
		}
	}
	if len(bots) != len(byName) {
		t.Errorf("cross_realm_bots has %d bots, want %d: %v", len(bots), len(byName), bots)
	}
	// No realm user is a system bot; the bots are not realm users.
	for _, u := range requireSuccess(t, "users", get(t, base, memberAuth, "/api/v1/users", ""))["members"].([]any) {
		if m := u.(map[string]any); m["is_system_bot"] != nil || m["user_id"].(float64) >= fixtures.FirstSystemBotID {
			t.Errorf("GET /users lists %v", m)
		}
	}
	id := requireSuccess(t, "welcome", post(t, base, adminAuth, "/api/v1/realm/test_welcome_bot_custom_message",
		"welcome_message_custom_text", "Hello"))["message_id"]
	msg := requireSuccess(t, "fetch", get(t, base, adminAuth, fmt.Sprintf("/api/v1/messages/%v", id), ""))["message"].(map[string]any)
	if msg["sender_id"] != byName["Welcome Bot"]["user_id"] {
		t.Errorf("Welcome Bot's message from %v, cross_realm_bots gives %v", msg["sender_id"], byName["Welcome Bot"]["user_id"])
	}
	checkBad(t, badCase{want: badRequest("No such user")}, get(t, base, memberAuth, fmt.Sprintf("/api/v1/users/%d", fixtures.FirstSystemBotID-1), ""))
}
