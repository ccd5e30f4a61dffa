package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
)

func TestVideoCalls(t *testing.T) {
	ts := newServer(t)
	create := func(auth string) response { return post(t, ts.URL, auth, "/api/v1/calls/vcall/create") }
	requireSuccess(t, "token", post(t, ts.URL, "", "/_fake/vcall_token", "user_id", "4"))
	checkBad(t, badCase{want: badRequest("Video call credentials have not been configured")}, create(memberAuth))
	integConfig(t, ts.URL, "video_calls_configured", "true")
	checkBad(t, badCase{want: bad(400, "INVALID_VIDEO_CALL_PROVIDER_TOKEN", "")}, create(ownerAuth))
	first := requireSuccess(t, "call", create(memberAuth))["url"]
	second := requireSuccess(t, "call", create(memberAuth))["url"]
	if !strings.HasPrefix(fmt.Sprint(first), "https://") || first == second {
		t.Errorf("meeting URLs %v and %v: want two distinct https URLs", first, second)
	}
	if got := requireSuccess(t, "extra parameter", post(t, ts.URL, memberAuth, "/api/v1/calls/vcall/create", "is_video_call", "true")); fmt.Sprint(got["ignored_parameters_unsupported"]) != "[is_video_call]" {
		t.Errorf("a parameter of the Zoom endpoint was not reported unsupported: %v", got)
	}
}

// The providers whose rooms the real server makes with its own credentials: without them,
// the provider's "credentials have not been configured"; with them, a room URL. Constructor
// Groups gives each user their own default room, the same one each time; Nextcloud Talk a new
// conversation each time.
func TestProviderRoomCalls(t *testing.T) {
	for _, c := range []struct {
		provider, path, prefix string
		params                 []string
		sameEachTime           bool
	}{
		{"Constructor Groups", "/api/v1/calls/constructorgroups/create", "https://groups.", nil, true},
		{"Nextcloud Talk", "/api/v1/calls/nextcloud_talk/create", "https://nextcloud.", []string{"room_name", "Standup"}, false},
	} {
		t.Run(c.provider, func(t *testing.T) {
			unconfigured := newCheckedServer(t)
			checkBad(t, badCase{want: badRequest(c.provider + " credentials have not been configured")}, post(t, unconfigured, memberAuth, c.path, c.params...))

			base := newCheckedServer(t, fakeserver.WithConfig(fakeserver.Config{VideoCallsConfigured: true}))
			first := fmt.Sprint(requireSuccess(t, "first", post(t, base, memberAuth, c.path, c.params...))["url"])
			again := fmt.Sprint(requireSuccess(t, "again", post(t, base, memberAuth, c.path, c.params...))["url"])
			other := fmt.Sprint(requireSuccess(t, "another user", post(t, base, ownerAuth, c.path, c.params...))["url"])
			if !strings.HasPrefix(first, c.prefix) || first == other || (first == again) != c.sameEachTime {
				t.Errorf("URLs %s, then %s, another user's %s: want %s..., the same each time %v, another user's apart",
					first, again, other, c.prefix, c.sameEachTime)
			}
		})
	}
}
