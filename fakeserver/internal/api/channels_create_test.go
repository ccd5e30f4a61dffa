package api_test

import (
	"fmt"
	"net/http"
	"testing"
)

// POST /channels/create: the channel is made with only the listed subscribers (the creator
// too only when listed), its creation and subscriptions are events, and a name in use is
// refused.
func TestCreateChannelRoute(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["stream","subscription"]`)
	const path = "/api/v1/channels/create"

	empty := requireSuccess(t, "nobody subscribed", post(t, base, ownerAuth, path, "name", " Empty ", "subscribers", "[]"))["id"]
	private := requireSuccess(t, "private", post(t, base, ownerAuth, path, "name", "members only", "subscribers", "[4]", "invite_only", "true"))["id"]

	for _, tc := range []struct {
		who, auth string
		want      []float64 // the channels of the two above the user is subscribed to
	}{
		{"the creator, not listed", ownerAuth, nil},
		{"the listed member", memberAuth, []float64{private.(float64)}},
	} {
		var got []float64
		for _, sub := range requireSuccess(t, tc.who, get(t, base, tc.auth, "/api/v1/users/me/subscriptions", ""))["subscriptions"].([]any) {
			if id := sub.(map[string]any)["stream_id"]; id == empty || id == private {
				got = append(got, id.(float64))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: subscribed to %v, want %v", tc.who, got, tc.want)
		}
	}
	if names := channelNames(t, base, modAuth, ""); names != "[Empty general]" {
		t.Errorf("a moderator outside the private channel finds %s", names)
	}

	var got []string
	for _, ev := range evPoll(t, base, memberAuth, queue, -1, true) {
		switch ev["type"] {
		case "stream":
			got = append(got, fmt.Sprint("stream ", ev["op"], " ", ev["streams"].([]any)[0].(map[string]any)["name"]))
		case "subscription":
			got = append(got, fmt.Sprint("subscription ", ev["op"], " ", ev["subscriptions"].([]any)[0].(map[string]any)["name"]))
		}
	}
	want := "[stream create Empty stream create members only subscription add members only]"
	if fmt.Sprint(got) != want {
		t.Errorf("the member's events: %v\nwant %s", got, want)
	}

	res := post(t, base, memberAuth, path, "name", "EMPTY", "subscribers", "[]")
	if res.status != http.StatusBadRequest || res.env["code"] != "CHANNEL_ALREADY_EXISTS" || res.env["msg"] != "Channel 'EMPTY' already exists" {
		t.Errorf("a name in use: %s", res)
	}
}
