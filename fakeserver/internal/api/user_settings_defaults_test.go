package api_test

import (
	"net/http"
	"testing"
)

// The realm's defaults for new users: an administrator changes them, every active user hears
// of each change, register shows them, users who exist keep their settings and a user created
// afterwards starts with them.
func TestRealmUserSettingsDefaults(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["realm_user_settings_defaults"]`)
	const path = "/api/v1/realm/user_settings_defaults"

	refused := patch(t, base, memberAuth, path, "color_scheme", "3")
	if refused.status != http.StatusBadRequest || refused.env["msg"] != "Must be an organization administrator" {
		t.Errorf("a member's change: %s", refused)
	}
	// enter_sends is already false: no event for it.
	requireSuccess(t, "defaults", patch(t, base, adminAuth, path,
		"color_scheme", "2", "emojiset", "text", "presence_enabled", "false", "enter_sends", "false", "email_address_visibility", "2"))

	var got []string
	for _, ev := range eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "realm_user_settings_defaults") {
		delete(ev, "id")
		got = append(got, canonical(ev))
	}
	want := []string{
		`{"op":"update","property":"color_scheme","type":"realm_user_settings_defaults","value":2}`,
		`{"op":"update","property":"email_address_visibility","type":"realm_user_settings_defaults","value":2}`,
		`{"op":"update","property":"emojiset","type":"realm_user_settings_defaults","value":"text"}`,
		`{"op":"update","property":"presence_enabled","type":"realm_user_settings_defaults","value":false}`,
	}
	if canonical(got) != canonical(want) {
		t.Errorf("events:\n%v\nwant\n%v", got, want)
	}

	defaults := registerKey(t, base, memberAuth, "realm_user_settings_defaults", "realm_user_settings_defaults").(map[string]any)
	for name, value := range map[string]any{"color_scheme": 2.0, "emojiset": "text", "presence_enabled": false, "enter_sends": false, "email_address_visibility": 2.0} {
		if defaults[name] != value {
			t.Errorf("register's default %s: %v, want %v", name, defaults[name], value)
		}
	}
	// As on the real server, register lists the settings the defaults keep but PATCH does not
	// take, with a new user's values; the time zone is not one of them.
	for name, value := range map[string]any{"default_language": "en", "enable_login_emails": true, "enable_marketing_emails": true, "allow_private_data_export": false} {
		if got, ok := defaults[name]; !ok || got != value {
			t.Errorf("register's default %s: %v (present: %v), want %v", name, got, ok, value)
		}
	}
	if _, ok := defaults["timezone"]; ok {
		t.Errorf("register's defaults have timezone, which stays the user's own")
	}

	settingsOf := func(auth string) map[string]any {
		return registerKey(t, base, auth, "user_settings", "user_settings").(map[string]any)
	}
	if s := settingsOf(memberAuth); s["color_scheme"] != 1.0 || s["presence_enabled"] != true {
		t.Errorf("an existing member's settings changed: color_scheme %v, presence_enabled %v", s["color_scheme"], s["presence_enabled"])
	}
	requireSuccess(t, "create", post(t, base, ownerAuth, "/api/v1/users",
		"email", "newcomer@chat.example.test", "password", "a-long-password", "full_name", "Newcomer"))
	key := requireSuccess(t, "key", post(t, base, "", "/api/v1/fetch_api_key", "username", "newcomer@chat.example.test", "password", "a-long-password"))["api_key"].(string)
	s := settingsOf(basicHeader("newcomer@chat.example.test", key))
	for name, value := range map[string]any{"color_scheme": 2.0, "emojiset": "text", "presence_enabled": false, "email_address_visibility": 2.0, "timezone": "UTC"} {
		if s[name] != value {
			t.Errorf("the new user's %s: %v, want %v", name, s[name], value)
		}
	}
}
