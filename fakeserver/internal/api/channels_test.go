package api_test

// GET /streams and GET /streams/{stream_id}: which channels each user finds, by the real
// server's filters, and their full channel objects.

import (
	"fmt"
	"testing"
)

// channelNames lists the names of GET /streams with the given query, as auth.
func channelNames(t *testing.T, base, auth, query string) string {
	t.Helper()
	var names []string
	for _, s := range requireSuccess(t, "GET /streams", get(t, base, auth, "/api/v1/streams", query))["streams"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	return fmt.Sprint(names)
}

func TestGetChannels(t *testing.T) {
	ts := newServer(t)
	newTestChannel(t, ts.URL, ownerAuth, "zeta public", false, "[1]")
	secret := newTestChannel(t, ts.URL, ownerAuth, "alpha secret", true, "[1,4]")
	old := newTestChannel(t, ts.URL, ownerAuth, "old", false, "[1,4]")
	requireSuccess(t, "archive", archiveChannel(t, ts.URL, ownerAuth, old))

	for _, tc := range []struct {
		who, auth, query, want string
	}{
		{"member, defaults", memberAuth, "", "[alpha secret general zeta public]"},
		{"member, subscribed only", memberAuth, "include_public=false", "[alpha secret general]"},
		{"member, archived too", memberAuth, "exclude_archived=false", "[alpha secret general old zeta public]"},
		{"member, public only", memberAuth, "include_subscribed=false", "[general zeta public]"},
		{"member, nothing asked", memberAuth, "include_subscribed=false&include_public=false", "[]"},
		{"guest, defaults: no public channel it is not in", guestAuth, "", "[general]"},
		{"admin outside a private channel, defaults", adminAuth, "", "[general zeta public]"},
		{"admin, include_all: private metadata too", adminAuth, "include_all=true", "[alpha secret general zeta public]"},
		{"admin, the deprecated include_all_active", adminAuth, "include_all_active=true", "[alpha secret general zeta public]"},
		{"moderator, include_all", modAuth, "include_all=true", "[general zeta public]"},
		{"bot, its owner's channels", botAuth, "include_public=false&include_subscribed=false&include_owner_subscribed=true", "[alpha secret general zeta public]"},
	} {
		if got := channelNames(t, ts.URL, tc.auth, tc.query); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.who, got, tc.want)
		}
	}

	env := requireSuccess(t, "include_default", get(t, ts.URL, memberAuth, "/api/v1/streams", "include_default=true"))
	for _, s := range env["streams"].([]any) {
		obj := s.(map[string]any)
		if obj["is_default"] != false {
			t.Errorf("include_default: %v, want is_default false (no channel is made default here)", obj)
		}
		for _, key := range []string{"stream_id", "description", "rendered_description", "date_created", "creator_id", "invite_only",
			"is_web_public", "history_public_to_subscribers", "first_message_id", "message_retention_days", "stream_weekly_traffic",
			"is_archived", "stream_post_policy", "can_remove_subscribers_group", "can_administer_channel_group", "subscriber_count"} {
			if _, ok := obj[key]; !ok {
				t.Errorf("channel %v lacks %s", obj["name"], key)
			}
		}
	}
	if env := requireSuccess(t, "without include_default", get(t, ts.URL, memberAuth, "/api/v1/streams", "")); env["streams"].([]any)[0].(map[string]any)["is_default"] != nil {
		t.Errorf("is_default present without include_default")
	}

	one := requireSuccess(t, "GET /streams/{id}", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/streams/%d", secret), ""))["stream"].(map[string]any)
	if one["name"] != "alpha secret" || one["invite_only"] != true || one["creator_id"] != float64(1) || one["subscriber_count"] != float64(2) {
		t.Errorf("GET /streams/%d: %v", secret, one)
	}
	requireSuccess(t, "an administrator outside the private channel", get(t, ts.URL, adminAuth, fmt.Sprintf("/api/v1/streams/%d", secret), ""))
	wantRefusal(t, "a moderator outside the private channel", get(t, ts.URL, modAuth, fmt.Sprintf("/api/v1/streams/%d", secret), ""), "Invalid channel ID")
	requireSuccess(t, "an archived channel", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/streams/%d", old), ""))
}
