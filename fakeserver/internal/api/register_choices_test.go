package api_test

// The choices register gives with the user's settings: the real server's emoji sets and
// notification sounds, inside user_settings and, for clients without user_settings_object, at
// the top level beside the legacy display and notification settings.

import (
	"slices"
	"testing"
)

func TestRegisterSettingChoices(t *testing.T) {
	base := newCheckedServer(t)
	const emojisets = `[{"key":"google","text":"Google"},{"key":"twitter","text":"Twitter"},{"key":"text","text":"Plain text"}]`
	checkSounds := func(where string, v any) {
		t.Helper()
		list, _ := v.([]any)
		var sounds []string
		for _, s := range list {
			sounds = append(sounds, s.(string))
		}
		// The real server's 30 sound files, sorted; "none" is a value of notification_sound
		// but no sound.
		if len(sounds) != 30 || sounds[0] != "ascend" || sounds[29] != "zulip" || !slices.IsSorted(sounds) ||
			!slices.Contains(sounds, "deep tom") || slices.Contains(sounds, "none") {
			t.Errorf("%s: available_notification_sounds %v", where, v)
		}
	}
	for _, c := range []struct {
		name     string
		kv       []string
		settings func(env map[string]any) map[string]any
	}{
		{"user_settings", []string{"fetch_event_types", `["user_settings"]`, "client_capabilities", `{"user_settings_object": true}`},
			func(env map[string]any) map[string]any { return env["user_settings"].(map[string]any) }},
		{"legacy top level", []string{"fetch_event_types", `["update_display_settings","update_global_notifications"]`},
			func(env map[string]any) map[string]any { return env }},
	} {
		settings := c.settings(requireSuccess(t, c.name, post(t, base, memberAuth, "/api/v1/register", c.kv...)))
		if got := canonical(settings["emojiset_choices"]); got != emojisets {
			t.Errorf("%s: emojiset_choices %s", c.name, got)
		}
		checkSounds(c.name, settings["available_notification_sounds"])
	}
	defaults := registerKey(t, base, memberAuth, "realm_user_settings_defaults", "realm_user_settings_defaults").(map[string]any)
	checkSounds("realm_user_settings_defaults", defaults["available_notification_sounds"])

	// Every listed sound, and "none", is a value the realm's defaults take; another is refused.
	for _, sound := range []string{"deep tom", "none"} {
		requireSuccess(t, sound, patch(t, base, adminAuth, "/api/v1/realm/user_settings_defaults", "notification_sound", sound))
	}
	wantRefusal(t, "a sound the server does not have", patch(t, base, adminAuth, "/api/v1/realm/user_settings_defaults", "notification_sound", "gong"),
		"Invalid notification sound 'gong'")
}
