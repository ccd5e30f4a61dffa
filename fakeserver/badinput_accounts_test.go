package fakeserver_test

import (
	"net/url"
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// Groups of the default fixture the cases use: system groups 1..7 (role:nobody first), then
// the fixture's user groups "support" (8: moderator and member) and "escalation" (9:
// administrator, with support as subgroup).
const (
	systemGroup     = "1"
	supportGroup    = "8"
	escalationGroup = "9"
)

// accountRouteCases adds the bad-input cases of the routes of users, roles, groups, JWT, presence, subscriptions.
func accountRouteCases(add func(routeSpec)) {
	memberEmail := "member@chat.example.test"
	ownerPrincipal := bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	notGuests := badRequest("Not allowed for guest users")
	notBots := badRequest("This endpoint does not accept bot requests.")
	insufficient := badRequest("Insufficient permission")

	byEmail := routeSpec{method: "PATCH", pattern: "/api/v1/users/{email:[^/]*(?:@|%40)[^/]*}", path: "/api/v1/users/" + memberEmail,
		role: fixtures.RoleOwner,
		params: []param{
			{name: "full_name", oversizeFails: true}, {name: "role", kind: kInt},
			{name: "profile_data", kind: kJSONList}, {name: "new_email", oversizeFails: true},
		},
		valid: []string{"full_name", "Renamed Member"}}
	onPath := func(path string, r request) request { r.path = path; return r }
	profile := func(json string) request { return byEmail.with("profile_data", json) }
	byEmail.extra = []badCase{
		{"unknown email", onPath("/api/v1/users/nobody@chat.example.test", byEmail.with("full_name", "X")), badRequest("No such user")},
		{"dummy address of an unknown id", onPath("/api/v1/users/user999@chat.example.test", byEmail.with("full_name", "X")), badRequest("No such user")},
		{"dummy address of another realm host", onPath("/api/v1/users/user4@other.example.test", byEmail.with("full_name", "X")), badRequest("No such user")},
		{"percent-encoded @", onPath("/api/v1/users/nobody%40chat.example.test", byEmail.with("full_name", "X")), badRequest("No such user")},
		{"member changing a user", byEmail.as(memberAuth), insufficient},
		{"moderator changing a role", byEmail.as(modAuth, "role", "300"), insufficient},
		{"guest", byEmail.as(guestAuth), insufficient},
		{"role between values", byEmail.with("role", "250"), badRequest("Invalid role")},
		{"role beyond 32 bits", byEmail.with("role", "4294967696"), badRequest("Invalid role")},
		{"administrator making an owner", byEmail.as(adminAuth, "role", "100"), ownerPrincipal},
		{"administrator demoting the owner", onPath("/api/v1/users/owner@chat.example.test", byEmail.as(adminAuth, "role", "200")), ownerPrincipal},
		{"the only owner demoting themselves", onPath("/api/v1/users/owner@chat.example.test", byEmail.with("role", "200")), badRequest("The owner permission cannot be removed from the only organization owner.")},
		{"a guest made an administrator", onPath("/api/v1/users/guest@chat.example.test", byEmail.with("role", "200")), badRequest("Guests cannot be organization administrators")},
		{"a guest made an owner", onPath("/api/v1/users/guest@chat.example.test", byEmail.with("role", "100")), badRequest("Guests cannot be organization administrators")},
		{"name with bad characters", byEmail.with("full_name", "Bad*Name"), badRequest("Invalid characters in name!")},
		{"profile_data: item not an object", profile("[1]"), badRequest("profile_data[0] is not a dict")},
		{"profile_data: no id", profile(`[{"value":"x"}]`), badRequest(`profile_data[0]["id"] is missing`)},
		{"profile_data: no value", profile(`[{"id":1}]`), badRequest(`profile_data[0]["value"] is missing`)},
		{"profile_data: id a string", profile(`[{"id":"1","value":"x"}]`), badRequest(`profile_data[0]["id"] is not an integer`)},
		{"profile_data: id a float", profile(`[{"id":1.5,"value":"x"}]`), badRequest(`profile_data[0]["id"] is not an integer`)},
		{"profile_data: unexpected key", profile(`[{"id":1,"value":"x","extra":1}]`), badRequest(`Argument "extra" at profile_data[0] is unexpected`)},
		{"profile_data: value a number", profile(`[{"id":1,"value":5}]`), badRequest(`profile_data[0]["value"] is not a string, a list of integers or null`)},
		{"profile_data: value a list of strings", profile(`[{"id":4,"value":["4"]}]`), badRequest(`profile_data[0]["value"][0] is not an integer`)},
		{"profile_data: unknown field", profile(`[{"id":999,"value":"x"}]`), badRequest("Field id 999 not found.")},
		{"profile_data: unknown field, null", profile(`[{"id":999,"value":null}]`), badRequest("Field id 999 not found.")},
		{"profile_data: text too long", profile(`[{"id":1,"value":"` + strings.Repeat("9", 51) + `"}]`), badRequest("Phone number is too long (limit: 50 characters)")},
		{"profile_data: text given user IDs", profile(`[{"id":1,"value":[4]}]`), badRequest("Phone number is not a string")},
		{"profile_data: link not a URL", profile(`[{"id":3,"value":"not a link"}]`), badRequest("Website is not a URL")},
		{"profile_data: link without a host", profile(`[{"id":3,"value":"https://"}]`), badRequest("Website is not a URL")},
		{"profile_data: users given a string", profile(`[{"id":4,"value":"Max Member"}]`), badRequest("Mentor is not a list")},
		{"profile_data: users with an unknown ID", profile(`[{"id":4,"value":[4,999]}]`), badRequest("Invalid user ID: 999")},
		{"profile_data: date not a date", profile(`[{"id":5,"value":"yesterday"}]`), badRequest("Birthday is not a date")},
		{"profile_data: good then bad (all or nothing)", byEmail.as(ownerAuth, "full_name", "Half Change", "profile_data", `[{"id":1,"value":"123"},{"id":3,"value":"nope"}]`), badRequest("Website is not a URL")},
		{"new_email by an administrator", byEmail.as(adminAuth, "new_email", "moved@chat.example.test"), ownerPrincipal},
		{"new_email not an address", byEmail.with("new_email", "nowhere"), badRequest("Invalid email 'nowhere'")},
		{"new_email in use", byEmail.with("new_email", "guest@chat.example.test"), badRequest("Email is already in use.")},
		{"new_email and a bad role (all or nothing)", byEmail.as(ownerAuth, "new_email", "moved@chat.example.test", "role", "7"), badRequest("Invalid role")},
	}
	add(byEmail)

	getByEmail := routeSpec{method: "GET", pattern: "/api/v1/users/{email:[^/]*(?:@|%40)[^/]*}", path: "/api/v1/users/" + memberEmail,
		role:   fixtures.RoleMember,
		params: []param{{name: "client_gravatar", kind: kBool}, {name: "include_custom_profile_fields", kind: kBool}}}
	getByEmail.extra = []badCase{
		{"unknown email", onPath("/api/v1/users/nobody@chat.example.test", getByEmail.as(memberAuth)), badRequest("No such user")},
	}
	add(getByEmail)

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

	groups := routeSpec{method: "GET", pattern: "/api/v1/user_groups", path: "/api/v1/user_groups", role: fixtures.RoleMember,
		params: []param{{name: "include_deactivated_groups", kind: kBool}}}
	groups.extra = []badCase{{"guest", groups.as(guestAuth), notGuests}, {"bot", groups.as(botAuth), notBots}}
	add(groups)

	create := routeSpec{method: "POST", pattern: "/api/v1/user_groups/create", path: "/api/v1/user_groups/create", role: fixtures.RoleMember,
		params: []param{
			{name: "name", required: true, oversizeFails: true}, {name: "description", required: true, oversizeFails: true},
			{name: "members", kind: kJSONList, required: true}, {name: "subgroups", kind: kJSONList},
		},
		valid: []string{"name", "badinput group", "description", "made by the test", "members", "[4]"}}
	create.extra = []badCase{
		{"guest", create.as(guestAuth), insufficient},
		{"name in use", create.with("name", "Support"), badRequest("User group 'Support' already exists.")},
		{"system group name", create.with("name", "role:helpers"), badRequest("User group name cannot start with 'role:'.")},
		{"blank name", create.with("name", "  "), badRequest("User group name cannot be empty.")},
		{"name too long", create.with("name", strings.Repeat("g", 101)), badRequest("name is too long (limit: 100 characters)")},
		{"description too long", create.with("description", strings.Repeat("d", 1025)), badRequest("description is too long (limit: 1024 characters)")},
		{"unknown member", create.with("members", "[4,999]"), badRequest("Invalid user ID: 999")},
		{"member id overflow", create.with("members", "["+huge+"]"), badRequest("members[0] is too large")},
		{"member id a string", create.with("members", `["4"]`), badRequest("members[0] is not an integer")},
		{"unknown subgroup", create.with("subgroups", "[999]"), badRequest("Invalid user group ID: 999")},
		{"subgroup id a float", create.with("subgroups", "[8.5]"), badRequest("subgroups[0] is not an integer")},
	}
	add(create)

	members := routeSpec{method: "POST", pattern: "/api/v1/user_groups/{user_group_id:[0-9]+}/members",
		path: "/api/v1/user_groups/{id}/members", id: supportGroup, notFound: "Invalid user group", role: fixtures.RoleOwner,
		params: []param{
			{name: "add", kind: kJSONList}, {name: "delete", kind: kJSONList},
			{name: "add_subgroups", kind: kJSONList}, {name: "delete_subgroups", kind: kJSONList},
		},
		valid: []string{"add", "[5]"}}
	nothing := badRequest(`Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".`)
	// change is a request to a group's members route with exactly these parameters.
	change := func(group string, kv ...string) request {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		r := members.build(v)
		r.path = "/api/v1/user_groups/" + group + "/members"
		return r
	}
	members.extra = []badCase{
		{"no parameters", members.build(nil), nothing},
		{"empty lists", members.with("add", "[]"), nothing},
		{"already a member", members.with("add", "[4]"), badRequest("User 4 is already a member of this group")},
		{"deleting a non-member", members.with("delete", "[1]"), badRequest("There is no member '1' in this user group")},
		{"adding an unknown user", members.with("add", "[999]"), badRequest("Invalid user ID: 999")},
		{"good add, bad delete (all or nothing)", members.as(ownerAuth, "delete", "[1]"), badRequest("There is no member '1' in this user group")},
		{"subgroup already there", change(escalationGroup, "add_subgroups", "["+supportGroup+"]"), badRequest("User group 8 is already a subgroup of this group.")},
		{"subgroup making a cycle", change(supportGroup, "add_subgroups", "["+escalationGroup+"]"), badRequest("User group 8 is already a subgroup of one of the passed subgroups.")},
		{"group as its own subgroup", change(supportGroup, "add_subgroups", "["+supportGroup+"]"), badRequest("User group 8 is already a subgroup of one of the passed subgroups.")},
		{"deleting a non-subgroup", change(supportGroup, "delete_subgroups", "[1]"), badRequest("User group 1 is not a subgroup of this group.")},
		{"system group", change(systemGroup, "add", "[5]"), insufficient},
		{"member who did not create the group", members.as(memberAuth), insufficient},
		{"guest", members.as(guestAuth), notGuests},
		{"bot", members.as(botAuth), notBots},
	}
	add(members)

	subgroups := routeSpec{method: "POST", pattern: "/api/v1/user_groups/{user_group_id:[0-9]+}/subgroups",
		path: "/api/v1/user_groups/{id}/subgroups", id: escalationGroup, notFound: "Invalid user group", role: fixtures.RoleAdmin,
		params: []param{{name: "add", kind: kJSONList}, {name: "delete", kind: kJSONList}},
		valid:  []string{"add", "[3]"}}
	subgroups.extra = []badCase{
		{"no parameters", subgroups.build(nil), badRequest(`Nothing to do. Specify at least one of "add" or "delete".`)},
		{"already a subgroup", subgroups.with("add", "["+supportGroup+"]"), badRequest("User group 8 is already a subgroup of this group.")},
		{"unknown group", subgroups.with("add", "[999]"), badRequest("Invalid user group ID: 999")},
		{"deleting a non-subgroup", subgroups.with("delete", "[2]"), badRequest("User group 2 is not a subgroup of this group.")},
		{"moderator", subgroups.as(modAuth), insufficient},
	}
	add(subgroups)

	// Escalation: support is its subgroup, so support is in use.
	deactivate := routeSpec{method: "POST", pattern: "/api/v1/user_groups/{user_group_id:[0-9]+}/deactivate",
		path: "/api/v1/user_groups/{id}/deactivate", id: escalationGroup, notFound: "Invalid user group", role: fixtures.RoleOwner}
	deactivate.extra = []badCase{
		{"member", deactivate.as(memberAuth), insufficient},
		{"system group", onPath("/api/v1/user_groups/"+systemGroup+"/deactivate", deactivate.as(ownerAuth)), insufficient},
		{"a subgroup of an active group", onPath("/api/v1/user_groups/"+supportGroup+"/deactivate", deactivate.as(ownerAuth)),
			bad(400, "CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.")},
	}
	add(deactivate)

	add(routeSpec{method: "GET", pattern: "/api/v1/user_groups/{user_group_id:[0-9]+}/members",
		path: "/api/v1/user_groups/{id}/members", id: escalationGroup, notFound: "Invalid user group", role: fixtures.RoleMember,
		params: []param{{name: "direct_member_only", kind: kBool}},
		extra:  []badCase{{"guest", request{method: "GET", path: "/api/v1/user_groups/9/members", auth: guestAuth}, notGuests}}})
	add(routeSpec{method: "GET", pattern: "/api/v1/user_groups/{user_group_id:[0-9]+}/subgroups",
		path: "/api/v1/user_groups/{id}/subgroups", id: escalationGroup, notFound: "Invalid user group", role: fixtures.RoleMember,
		params: []param{{name: "direct_subgroup_only", kind: kBool}},
		extra: []badCase{
			{"guest", request{method: "GET", path: "/api/v1/user_groups/9/subgroups", auth: guestAuth}, notGuests},
			{"bot", request{method: "GET", path: "/api/v1/user_groups/9/subgroups", auth: botAuth}, notBots},
		}})

	deactivateSelf := routeSpec{method: "DELETE", pattern: "/api/v1/users/me", path: "/api/v1/users/me", role: fixtures.RoleMember}
	deactivateSelf.extra = []badCase{
		{"the only owner", deactivateSelf.as(ownerAuth), bad(400, "CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only organization owner.")},
	}
	add(deactivateSelf)

	deactivateUser := routeSpec{method: "DELETE", pattern: "/api/v1/users/{user_id:[0-9]+}", path: "/api/v1/users/{id}", id: "4",
		notFound: "No such user", role: fixtures.RoleAdmin,
		params: []param{{name: "deactivation_notification_comment", oversizeFails: true}}}
	onUser := func(id string, r request) request { r.path = "/api/v1/users/" + id; return r }
	deactivateUser.extra = []badCase{
		{"moderator", deactivateUser.as(modAuth), principalAdmin},
		{"member, no parameters (role checked first)", request{method: "DELETE", path: "/api/v1/users/4", auth: memberAuth}, principalAdmin},
		{"administrator deactivating the owner", onUser("1", deactivateUser.as(adminAuth)), ownerPrincipal},
		{"the only owner", onUser("1", deactivateUser.as(ownerAuth)), badRequest("Cannot deactivate the only organization owner")},
		{"a bot", onUser("6", deactivateUser.as(adminAuth)), badRequest("No such user")},
		{"comment too long", deactivateUser.with("deactivation_notification_comment", strings.Repeat("c", 2001)), badRequest("deactivation_notification_comment is too long (limit: 2000 characters)")},
	}
	add(deactivateUser)

	deactivateBot := routeSpec{method: "DELETE", pattern: "/api/v1/bots/{bot_id:[0-9]+}", path: "/api/v1/bots/{id}", id: "6",
		notFound: "No such bot", role: fixtures.RoleAdmin}
	deactivateBot.extra = []badCase{
		{"member who does not own it", deactivateBot.as(memberAuth), badRequest("Insufficient permission")},
		{"moderator who does not own it", deactivateBot.as(modAuth), badRequest("Insufficient permission")},
		{"a human", request{method: "DELETE", path: "/api/v1/bots/4", auth: adminAuth}, badRequest("No such bot")},
	}
	add(deactivateBot)

	add(routeSpec{method: "GET", pattern: "/api/v1/realm/profile_fields", path: "/api/v1/realm/profile_fields", role: fixtures.RoleGuest})

	addField := routeSpec{method: "POST", pattern: "/api/v1/realm/profile_fields", path: "/api/v1/realm/profile_fields", role: fixtures.RoleAdmin,
		params: []param{
			{name: "name", required: true, oversizeFails: true}, {name: "hint", oversizeFails: true},
			{name: "field_type", kind: kInt, required: true},
		},
		valid: []string{"name", "Team", "field_type", "1"}}
	addField.extra = []badCase{
		{"member", addField.as(memberAuth), principalAdmin},
		{"name in use", addField.with("name", "website"), badRequest("A field with that label already exists.")},
		{"blank name", addField.with("name", " "), badRequest("Label cannot be blank.")},
		{"name too long", addField.with("name", strings.Repeat("n", 41)), badRequest("name is too long (limit: 40 characters)")},
		{"choice type (needs field data)", addField.with("field_type", "3"), badRequest("Invalid field type.")},
		{"unknown type", addField.with("field_type", "99"), badRequest("Invalid field type.")},
		{"negative type", addField.with("field_type", "-1"), badRequest("Invalid field type.")},
	}
	add(addField)

	add(routeSpec{method: "DELETE", pattern: "/api/v1/realm/profile_fields/{field_id:[0-9]+}", path: "/api/v1/realm/profile_fields/{id}", id: "1",
		role: fixtures.RoleAdmin,
		extra: []badCase{
			{"member", request{method: "DELETE", path: "/api/v1/realm/profile_fields/1", auth: memberAuth}, principalAdmin},
			{"unknown field", request{method: "DELETE", path: "/api/v1/realm/profile_fields/999", auth: adminAuth}, badRequest("Field id 999 not found.")},
		}})

	// The default fixture's JWT key is chatconform-jwt-key (HS256).
	jwtFetch := routeSpec{method: "POST", pattern: "/api/v1/jwt/fetch_api_key", path: "/api/v1/jwt/fetch_api_key",
		params: []param{{name: "token", oversizeFails: true}, {name: "include_profile", kind: kBool}},
		valid:  []string{"token", jwtFor("member@chat.example.test")}}
	badToken := badRequest("Bad JSON web token")
	jwtFetch.extra = []badCase{
		{"no token", jwtFetch.build(nil), badRequest("No JSON web token passed in request")},
		{"empty token", jwtFetch.with("token", ""), badRequest("No JSON web token passed in request")},
		{"not a JWT", jwtFetch.with("token", "not-a-token"), badToken},
		{"signed with another key", jwtFetch.with("token", jwtWith("another-key", "HS256", map[string]any{"email": "member@chat.example.test"})), badToken},
		{"signed with another algorithm", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS512", map[string]any{"email": "member@chat.example.test"})), badToken},
		{"unsigned (alg none)", jwtFetch.with("token", unsignedJWT(map[string]any{"email": "member@chat.example.test"})), badToken},
		{"expired", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"email": "member@chat.example.test", "exp": defaultFixture.Realm.StartTime - 1})), badToken},
		{"not yet valid", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"email": "member@chat.example.test", "nbf": defaultFixture.Realm.StartTime + 3600})), badToken},
		{"exp not a number", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"email": "member@chat.example.test", "exp": "soon"})), badToken},
		{"no email claim", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"sub": "member"})), badRequest("No email specified in JSON web token claims")},
		{"email claim not a string", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"email": 4})), badRequest("No email specified in JSON web token claims")},
		{"unknown user", jwtFetch.with("token", jwtFor("nobody@chat.example.test")), bad(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")},
		{"dummy address", jwtFetch.with("token", jwtFor("user4@chat.example.test")), bad(401, "AUTHENTICATION_FAILED", "")},
	}
	add(jwtFetch)
}
