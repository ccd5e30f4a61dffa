package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesMutedUsers adds the bad-input cases of the routes whose handlers are in muted_users.go.
func routeCasesMutedUsers(add func(routeSpec)) {
	mute := routeSpec{method: "POST", pattern: "/api/v1/users/me/muted_users/{muted_user_id:[0-9]+}", path: "/api/v1/users/me/muted_users/{id}",
		id: "5", notFound: "No such user", role: fixtures.RoleMember}
	mute.extra = []badCase{
		{"oneself", onPath("/api/v1/users/me/muted_users/4", mute.as(memberAuth)), badRequest("Cannot mute self")},
		{"a user muted already", onPath("/api/v1/users/me/muted_users/6", mute.as(memberAuth)), badRequest("User already muted")},
	}
	add(mute)

	unmute := routeSpec{method: "DELETE", pattern: "/api/v1/users/me/muted_users/{muted_user_id:[0-9]+}", path: "/api/v1/users/me/muted_users/{id}",
		id: "6", notFound: "No such user", role: fixtures.RoleMember}
	unmute.extra = []badCase{
		{"a user not muted", onPath("/api/v1/users/me/muted_users/5", unmute.as(memberAuth)), badRequest("User is not muted")},
		{"another user's mute", unmute.as(ownerAuth), badRequest("User is not muted")},
	}
	add(unmute)
}
