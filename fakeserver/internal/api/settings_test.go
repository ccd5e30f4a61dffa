package api_test

import (
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/chatconform/chatconform/fakeserver/openapi"
)

// userSettingCases are user settings of each kind and rule PATCH /settings takes: a value
// the fixture's member does not have (as sent, and as register and the event give it), the
// legacy event type that also announces it ("" for none: register gives it at the top level
// exactly when it has one), and a value the real server refuses with its message.
var userSettingCases = []struct {
	name, value string
	want        any
	legacy      string
	bad, badMsg string
}{
	{"enter_sends", "true", true, "update_display_settings", "maybe", "enter_sends is not valid JSON"},
	{"enable_digest_emails", "false", false, "update_global_notifications", "2", "enable_digest_emails is not a boolean"},
	{"enable_login_emails", "false", false, "update_global_notifications", "no", "enable_login_emails is not valid JSON"},
	{"web_font_size_px", "20", 20.0, "", "big", "web_font_size_px is not valid JSON"},
	{"color_scheme", "3", 3.0, "update_display_settings", "4", "Invalid color_scheme"},
	{"demote_inactive_streams", "2", 2.0, "update_display_settings", "0", "Invalid demote_inactive_streams"},
	{"email_notifications_batching_period_seconds", "600", 600.0, "update_global_notifications", "0", "Invalid email batching period: 0 seconds"},
	{"emojiset", "text", "text", "update_display_settings", "apple", "Invalid emojiset"},
	{"web_home_view", "recent_topics", "recent_topics", "update_display_settings", "home", "Invalid web_home_view"},
	{"notification_sound", "ding", "ding", "update_global_notifications", "gong", "Invalid notification sound 'gong'"},
	{"web_animate_image_previews", "always", "always", "", "sometimes", "Invalid web_animate_image_previews"},
	{"default_language", "de", "de", "update_display_settings", "xx", "Invalid default_language"},
	{"timezone", "Asia/Kolkata", "Asia/Kolkata", "update_display_settings", "Mars/Olympus", "Not a recognized time zone"},
	{"presence_enabled", "false", false, "update_global_notifications", "sometimes", "presence_enabled is not valid JSON"},
	{"email_address_visibility", "4", 4.0, "", "6", "Invalid email_address_visibility"},
	{"allow_private_data_export", "true", true, "", "yes", "allow_private_data_export is not valid JSON"},
}

// PATCH /settings, setting by setting: a change is read back in register's user_settings and
// announced to the user with a user_settings event (and, to a client without
// user_settings_object, the legacy event); a refused value changes nothing and announces
// nothing.
func TestUpdateSettingsEachSetting(t *testing.T) {
	for _, c := range userSettingCases {
		t.Run(c.name, func(t *testing.T) {
			base := newCheckedServer(t)
			modern := evRegister(t, base, memberAuth, "event_types", `["user_settings","update_display_settings","update_global_notifications"]`,
				"client_capabilities", `{"user_settings_object":true}`)
			legacy := evRegister(t, base, memberAuth, "event_types", `["user_settings","update_display_settings","update_global_notifications"]`)
			settingsNow := func() map[string]any {
				return registerKey(t, base, memberAuth, "user_settings", "user_settings").(map[string]any)
			}
			before := settingsNow()

			wantRefusal(t, "bad value", patch(t, base, memberAuth, "/api/v1/settings", c.name, c.bad), c.badMsg)
			wantRefusal(t, "bad value with a good one", patch(t, base, memberAuth, "/api/v1/settings", c.name, c.bad, "left_side_userlist", "true"), c.badMsg)
			if after := settingsNow(); canonical(after) != canonical(before) {
				t.Errorf("a refused change changed user_settings:\n%s\nwas\n%s", canonical(after), canonical(before))
			}
			if evs := evPoll(t, base, memberAuth, legacy, -1, true); len(evs) != 0 {
				t.Errorf("events of a refused change: %v", evs)
			}

			if r := requireSuccess(t, "change", patch(t, base, memberAuth, "/api/v1/settings", c.name, c.value)); len(r) != 2 {
				t.Errorf("reply %v: the real server echoes nothing", r)
			}
			if got := settingsNow()[c.name]; got != c.want {
				t.Errorf("register's user_settings.%s: %v, want %v", c.name, got, c.want)
			}
			// Register's top-level copy, for clients without user_settings_object.
			topLevel := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register",
				"fetch_event_types", `["update_display_settings","update_global_notifications"]`))
			if got, shown := topLevel[c.name]; shown != (c.legacy != "") || shown && got != c.want {
				t.Errorf("register's top-level %s: %v (shown %v), want %v", c.name, got, shown, c.want)
			}
			changed := map[string]any{"type": "user_settings", "op": "update", "property": c.name, "value": c.want}
			for _, q := range []struct {
				queue      string
				wantLegacy bool
			}{{modern, false}, {legacy, c.legacy != ""}} {
				evs := evPoll(t, base, memberAuth, q.queue, -1, true)
				got := eventsOfType(evs, "user_settings")
				if len(got) != 1 || got[0]["property"] != changed["property"] || got[0]["value"] != changed["value"] || got[0]["op"] != "update" {
					t.Errorf("user_settings events %v, want one %v", got, changed)
				}
				legacyEvs := append(eventsOfType(evs, "update_display_settings"), eventsOfType(evs, "update_global_notifications")...)
				if !q.wantLegacy {
					if len(legacyEvs) != 0 {
						t.Errorf("legacy events %v, want none", legacyEvs)
					}
					continue
				}
				nameKey := map[string]string{"update_display_settings": "setting_name", "update_global_notifications": "notification_name"}[c.legacy]
				if len(legacyEvs) != 1 || legacyEvs[0]["type"] != c.legacy || legacyEvs[0][nameKey] != c.name || legacyEvs[0]["setting"] != c.want {
					t.Errorf("legacy events %v, want one %s of %s", legacyEvs, c.legacy, c.name)
				}
			}

			requireSuccess(t, "the same value again", patch(t, base, memberAuth, "/api/v1/settings", c.name, c.value))
			if evs := eventsOfType(evPoll(t, base, memberAuth, modern, -1, true), "user_settings"); len(evs) != 1 {
				t.Errorf("events after an unchanged value: %v, want the first change's alone", evs)
			}
		})
	}
}

// PATCH /settings/display and /settings/notifications, the real server's deprecated aliases of
// PATCH /settings, take every setting it does (display settings through the notifications
// alias too) and refuse what it refuses.
func TestUpdateSettingsAliases(t *testing.T) {
	base := newCheckedServer(t)
	for _, c := range []struct{ path, name, value string }{
		{"/api/v1/settings/display", "enable_sounds", "false"},
		{"/api/v1/settings/display", "color_scheme", "3"},
		{"/api/v1/settings/notifications", "emojiset", "text"},
		{"/api/v1/settings/notifications", "enable_digest_emails", "false"},
	} {
		requireSuccess(t, c.path+" "+c.name, patch(t, base, memberAuth, c.path, c.name, c.value))
		got := registerKey(t, base, memberAuth, "user_settings", "user_settings").(map[string]any)[c.name]
		if fmt.Sprint(got) != strings.Trim(c.value, `"`) {
			t.Errorf("%s %s=%s: user_settings has %v", c.path, c.name, c.value, got)
		}
	}
	wantRefusal(t, "a bad value", patch(t, base, memberAuth, "/api/v1/settings/display", "color_scheme", "9"), "Invalid color_scheme")
	if res := patch(t, base, botAuth, "/api/v1/settings/notifications", "enable_sounds", "true"); res.status != 400 {
		t.Errorf("a bot through the alias: HTTP %d %s", res.status, res)
	}
}

// Settings that need more than a value: the full name is checked and announced to everyone,
// the time zone is announced to everyone, and the language event names the language.
func TestUpdateSettingsWithEffects(t *testing.T) {
	base := newCheckedServer(t)
	others := evRegister(t, base, adminAuth, "event_types", `["realm_user"]`)
	own := evRegister(t, base, memberAuth, "event_types", `["user_settings"]`)

	for _, bad := range []struct{ name, msg string }{{"  ", "Name too short!"}, {"a@b", "Invalid characters in name!"}} {
		wantRefusal(t, "full name "+bad.name, patch(t, base, memberAuth, "/api/v1/settings", "full_name", bad.name, "enter_sends", "true"), bad.msg)
	}
	requireSuccess(t, "change", patch(t, base, memberAuth, "/api/v1/settings",
		"full_name", "  Renamed Member ", "timezone", "Europe/Berlin", "default_language", "fr"))

	user := requireSuccess(t, "user", get(t, base, adminAuth, "/api/v1/users/4", ""))["user"].(map[string]any)
	if user["full_name"] != "Renamed Member" || user["timezone"] != "Europe/Berlin" {
		t.Errorf("the user after the change: %v", user)
	}
	var persons []string
	for _, ev := range eventsOfType(evPoll(t, base, adminAuth, others, -1, true), "realm_user") {
		person := ev["person"].(map[string]any)
		delete(person, "email")
		persons = append(persons, canonical(person))
	}
	want := []string{`{"full_name":"Renamed Member","user_id":4}`, `{"timezone":"Europe/Berlin","user_id":4}`}
	if canonical(persons) != canonical(want) {
		t.Errorf("realm_user updates %v, want %v", persons, want)
	}
	for _, ev := range eventsOfType(evPoll(t, base, memberAuth, own, -1, true), "user_settings") {
		if ev["property"] == "default_language" && ev["language_name"] != "français" {
			t.Errorf("default_language event %v: language_name", ev)
		}
	}
	if s := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm_user"]`)); s["full_name"] != "Renamed Member" {
		t.Errorf("register's full_name %v", s["full_name"])
	}
}

// Every setting register shows in user_settings is a parameter of PATCH /settings in the fake's
// OpenAPI description (whose request check holds the fake's successes to it).
func TestUpdateSettingsDescribed(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `yaml:"properties"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(openapi.YAML(), &doc); err != nil {
		t.Fatal(err)
	}
	described := doc.Components.Schemas["UpdateSettingsParams"].Properties
	settings := registerKey(t, newCheckedServer(t), memberAuth, "user_settings", "user_settings").(map[string]any)
	for name := range settings {
		if _, ok := described[name]; !ok && name != "emojiset_choices" && name != "available_notification_sounds" {
			t.Errorf("user setting %s is not a described parameter of PATCH /settings", name)
		}
	}
	if _, ok := described["full_name"]; !ok || len(described) < len(settings)-1 {
		t.Errorf("described parameters: %d for %d settings and full_name", len(described), len(settings)-2)
	}
}
