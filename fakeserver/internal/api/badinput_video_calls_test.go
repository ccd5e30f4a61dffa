package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesVideoCalls adds the bad-input cases of the routes whose handlers are in video_calls.go.
func routeCasesVideoCalls(add func(routeSpec)) {
	vcall := routeSpec{method: "POST", pattern: "/api/v1/calls/vcall/create", path: "/api/v1/calls/vcall/create", role: fixtures.RoleMember}
	vcall.extra = []badCase{
		{"a user without a token", vcall.as(ownerAuth), bad(400, "INVALID_VIDEO_CALL_PROVIDER_TOKEN", "Invalid video call access token")},
	}
	add(vcall)
	add(routeSpec{method: "POST", pattern: "/api/v1/calls/constructorgroups/create", path: "/api/v1/calls/constructorgroups/create", role: fixtures.RoleMember})
	add(routeSpec{method: "POST", pattern: "/api/v1/calls/nextcloud_talk/create", path: "/api/v1/calls/nextcloud_talk/create", role: fixtures.RoleMember,
		params: []param{{name: "room_name", required: true}}, valid: []string{"room_name", "Standup"}})
}
