package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesGroupMembership adds the bad-input cases of the routes whose handlers are in group_membership.go.
func routeCasesGroupMembership(add func(routeSpec)) {
	isMember := routeSpec{method: "GET", pattern: "/api/v1/user_groups/{user_group_id:[0-9]+}/members/{user_id:[0-9]+}",
		path: "/api/v1/user_groups/{id}/members/4", id: supportGroup, notFound: "Invalid user group", role: fixtures.RoleMember,
		params: []param{{name: "direct_member_only", kind: kBool}}}
	memberOf := func(user string) request {
		return onPath("/api/v1/user_groups/"+supportGroup+"/members/"+user, isMember.as(memberAuth))
	}
	isMember.extra = []badCase{
		{"unknown user", memberOf("999"), badRequest("No such user")},
		{"user id zero", memberOf("0"), badRequest("No such user")},
		{"user id overflow", memberOf(huge), badRequest("No such user")},
		{"a bot", memberOf("6"), badRequest("No such user")},
		{"user id not a number", memberOf("abc"), notFound404},
		{"guest", isMember.as(guestAuth), notGuests},
		{"bot", isMember.as(botAuth), notBots},
	}
	add(isMember)
}
