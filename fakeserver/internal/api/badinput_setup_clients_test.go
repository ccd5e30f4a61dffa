package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// clientSetUp gives every route's fake what this area's routes act on: the member's heart
// reaction to the setup message, and the member's presence.
func clientSetUp(t testing.TB, base string) {
	t.Helper()
	requireSuccess(t, "setup reaction", post(t, base, memberAuth, "/api/v1/messages/1/reactions", "emoji_name", "heart"))
	requireSuccess(t, "setup presence", post(t, base, memberAuth, "/api/v1/users/me/presence", "status", "active"))
}

// clientStateOf adds, to a bad-input test's state, what this area's requests could change
// beyond the common state: channels with their settings, the member's subscriptions (with
// their settings, and the ones left), topic policies and presence, and the groups.
func clientStateOf(t testing.TB, base string, state map[string]any) {
	t.Helper()
	read := func(key string, res response, name string) { recordField(state, key, res, name) }
	read("channels", get(t, base, ownerAuth, "/api/v1/streams", "include_all=true&exclude_archived=false"), "streams")
	member := post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["subscription","user_topic","presence"]`)
	for _, key := range []string{"subscriptions", "unsubscribed", "user_topics", "presences"} {
		read("member "+key, member, key)
	}
	read("groups", get(t, base, ownerAuth, "/api/v1/user_groups", "include_deactivated_groups=true"), "user_groups")
}

// setupUpload stands for the middle part of the setup upload's path_id in the cases; it
// depends on how many resets the server has seen, so the runner fills it in (withOwnerQueue).
const setupUpload = "SETUPUPLOAD"

// setupUploadHash is the middle part of the setup upload's path_id after the given number of
// fixture loads: the fake derives it from the realm's string ID, the load and the
// attachment's ID, so that runs are reproducible and no path id outlives a reset.
func setupUploadHash(loads int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d/1", defaultFixture.Realm.StringID, loads))
	return hex.EncodeToString(sum[:])[:24]
}
