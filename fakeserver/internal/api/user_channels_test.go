package api_test

import (
	"net/http"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// GET /users/{user_id}/channels: the target's subscriptions the requester may see the
// subscribers of (a private channel only to its subscribers and administrators), archived
// channels left out.
func TestUserChannels(t *testing.T) {
	base := newCheckedServer(t)
	public := newTestChannel(t, base, ownerAuth, "zeta public", false, "[1]")
	secret := newTestChannel(t, base, ownerAuth, "alpha secret", true, "[1,4]")
	old := newTestChannel(t, base, ownerAuth, "old", false, "[1,4]")
	requireSuccess(t, "archive", archiveChannel(t, base, ownerAuth, old))
	newTestChannel(t, base, ownerAuth, "not the owner's", false, "[4]")

	for _, tc := range []struct {
		who, auth string
		want      []int
	}{
		{"a subscriber of the private channel", memberAuth, []int{1, public, secret}},
		{"an administrator outside it", adminAuth, []int{1, public, secret}},
		{"a moderator outside it", modAuth, []int{1, public}},
	} {
		got := requireSuccess(t, tc.who, get(t, base, tc.auth, "/api/v1/users/1/channels", ""))["subscribed_channel_ids"]
		if canonical(got) != canonical(tc.want) {
			t.Errorf("%s: %s, want %v", tc.who, canonical(got), tc.want)
		}
	}
	res := get(t, base, memberAuth, "/api/v1/users/99/channels", "")
	if res.status != http.StatusBadRequest || res.env["msg"] != "No such user" {
		t.Errorf("an unknown user: %s", res)
	}
	botsAnsweredFrom(t, "/api/v1/users/6/channels")
}

// botsAnsweredFrom: a query about the bot in path answers HTTP 400 (No such user) one level
// below LevelBotSubscriptionStatus and succeeds at it.
func botsAnsweredFrom(t *testing.T, path string) {
	t.Helper()
	for _, c := range []struct {
		level  int
		status int
	}{{realm.LevelBotSubscriptionStatus - 1, http.StatusBadRequest}, {realm.LevelBotSubscriptionStatus, http.StatusOK}} {
		if res := get(t, newServerAt(t, c.level).URL, memberAuth, path, ""); res.status != c.status {
			t.Errorf("%s at level %d: %s", path, c.level, res)
		}
	}
}
