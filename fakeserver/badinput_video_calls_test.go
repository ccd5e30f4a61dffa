package fakeserver_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesVideoCalls adds the bad-input cases of the routes whose handlers are in api_video_calls.go.
func routeCasesVideoCalls(add func(routeSpec)) {
	vcall := routeSpec{method: "POST", pattern: "/api/v1/calls/vcall/create", path: "/api/v1/calls/vcall/create", role: fixtures.RoleMember}
	vcall.extra = []badCase{
		{"a user without a token", vcall.as(ownerAuth), bad(400, "INVALID_VIDEO_CALL_PROVIDER_TOKEN", "Invalid video call access token")},
	}
	add(vcall)
}
