package fakeserver_test

import (
	"fmt"
	"strings"
	"testing"
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
