package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesSubscriptions adds the bad-input cases of the routes whose handlers are in subscriptions.go.
func routeCasesSubscriptions(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions", role: fixtures.RoleMember,
		params: []param{{name: "include_subscribers", kind: kBool}}})

	sub := routeSpec{method: "POST", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions", role: fixtures.RoleOwner,
		params: []param{
			{name: "subscriptions", kind: kJSONList, required: true},
			{name: "invite_only", kind: kBool},
			{name: "history_public_to_subscribers", kind: kBool},
			{name: "folder_id", kind: kInt},
			{name: "principals", kind: kJSONList},
		},
		valid: []string{"subscriptions", `[{"name":"` + newChan + `","description":"made by the test"}]`}}
	subs := func(s string) request { return sub.with("subscriptions", s) }
	sub.extra = []badCase{
		{"subscriptions: empty list", subs("[]"), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: list of numbers", subs("[1]"), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: list of strings", subs(`["` + newChan + `"]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: no name", subs(`[{"description":"x"}]`), badRequest(`subscriptions[0]["name"] is not a string`)},
		{"subscriptions: numeric name", subs(`[{"name":5}]`), badRequest(`subscriptions[0]["name"] is not a string`)},
		{"subscriptions: second entry bad", subs(`[{"name":"` + newChan + `"},{"name":null}]`), badRequest(`subscriptions[1]["name"] is not a string`)},
		{"subscriptions: numeric description", subs(`[{"name":"badinput-desc","description":5}]`), badRequest(`subscriptions[0]["description"] is not a string`)},
		{"subscriptions: empty name", subs(`[{"name":""}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: blank name", subs(`[{"name":"   "}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: name too long", subs(`[{"name":"` + strings.Repeat("c", 61) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: 1 MiB name", subs(`[{"name":"` + oneMiB + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: control character", subs(`[{"name":"badinput-x\u0007"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: description too long", subs(`[{"name":"badinput-desc","description":"` + strings.Repeat("d", 1025) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: good then bad", subs(`[{"name":"` + newChan + `"},{"name":"` + strings.Repeat("c", 61) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: unknown email", sub.with("principals", `["nobody@chat.example.test"]`), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: unknown id", sub.with("principals", "[999]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: negative id", sub.with("principals", "[-1]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: huge id", sub.with("principals", "["+huge+"]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: float id", sub.with("principals", "[1.5]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: bool", sub.with("principals", "[true]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: nested list", sub.with("principals", "[[4]]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: good then unknown", sub.with("principals", "[4,999]"), want{status: 400, code: "BAD_REQUEST"}},
		{"guest creating a channel", sub.as(guestAuth, "subscriptions", `[{"name":"badinput-guest"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"guest subscribing others", sub.as(guestAuth, "subscriptions", `[{"name":"general"}]`, "principals", "[4]"), want{status: 400, code: "BAD_REQUEST"}},
		{"folder_id: no such folder", sub.with("folder_id", "99"), badRequest("Invalid channel folder ID")},
		{"folder_id: negative", sub.with("folder_id", "-1"), badRequest("Invalid channel folder ID")},
	}
	add(sub)

	unsub := routeSpec{method: "DELETE", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions",
		role: fixtures.RoleMember,
		params: []param{
			{name: "subscriptions", kind: kStrList, required: true},
			{name: "principals", kind: kJSONList},
		},
		valid: []string{"subscriptions", `["general"]`}}
	unsub.extra = []badCase{
		{"unknown channel", unsub.with("subscriptions", `["general","nowhere"]`), badRequest("Channel(s) (nowhere) do not exist")},
		{"blank name", unsub.with("subscriptions", `[" "]`), badRequest("Channel name can't be empty.")},
		{"another user, as a member", unsub.with("principals", "[1]"), badRequest("Insufficient permission")},
		{"unknown principal", unsub.with("principals", "[4,999]"), badRequest("No such user")},
		{"unknown principal email", unsub.with("principals", `["nobody@chat.example.test"]`), badRequest("No such user")},
		{"principal of the wrong type", unsub.with("principals", "[true]"), want{status: 400, code: "BAD_REQUEST"}},
	}
	add(unsub)

	subStatus := routeSpec{method: "GET", pattern: "/api/v1/users/{user_id:[0-9]+}/subscriptions/{stream_id:[0-9]+}",
		path: "/api/v1/users/4/subscriptions/{id}", id: "1", notFound: "Invalid channel ID", role: fixtures.RoleMember}
	ofUser := func(user string) request {
		r := subStatus.as(memberAuth)
		r.path = "/api/v1/users/" + user + "/subscriptions/1"
		return r
	}
	subStatus.extra = []badCase{
		{"unknown user", ofUser("999"), badRequest("No such user")},
		{"user id zero", ofUser("0"), badRequest("No such user")},
		{"user id overflow", ofUser(huge), badRequest("No such user")},
		{"user id not a number", ofUser("abc"), notFound404},
		{"unknown user and channel (the user first)", func() request { r := ofUser("999"); r.path += "9"; return r }(), badRequest("No such user")},
	}
	add(subStatus)
}
