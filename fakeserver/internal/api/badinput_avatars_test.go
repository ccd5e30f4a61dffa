package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesAvatars adds the bad-input cases of the routes whose handlers are in avatars.go.
func routeCasesAvatars(add func(routeSpec)) {
	avatar := routeSpec{method: "GET", pattern: "/avatar/{user_id_or_email:(?:[^/][^/][^/]+|[^/m][^/]?|m[^/e]?)}", path: "/avatar/4", role: fixtures.RoleGuest, raw: true}
	avatar.extra = []badCase{{"no such user", request{method: "GET", path: "/avatar/999", auth: guestAuth}, badRequest("No such user")}}
	add(avatar)

	add(routeSpec{method: "GET", pattern: "/avatar/{user_id_or_email:(?:[^/][^/][^/]+|[^/m][^/]?|m[^/e]?)}/medium", path: "/avatar/member@chat.example.test/medium",
		role: fixtures.RoleGuest, raw: true})

	add(routeSpec{method: "GET", pattern: "/static/images/logo/zulip-icon-128x128.png", path: "/static/images/logo/zulip-icon-128x128.png", raw: true})
}
