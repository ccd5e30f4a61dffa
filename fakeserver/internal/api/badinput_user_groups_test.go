package api_test

import (
	"net/url"
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesUserGroups adds the bad-input cases of the routes whose handlers are in user_groups.go.
func routeCasesUserGroups(add func(routeSpec)) {
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

	group := routeSpec{method: "PATCH", pattern: "/api/v1/user_groups/{user_group_id:[0-9]+}", path: "/api/v1/user_groups/{id}", id: "8",
		notFound: "Invalid user group", role: fixtures.RoleAdmin,
		params: []param{
			{name: "name", oversizeFails: true},
			{name: "description", oversizeFails: true},
			{name: "deactivated", kind: kBool},
		},
		valid: []string{"name", "renamed by the bad-input test"}}
	group.extra = []badCase{
		{"nothing to change", group.without("name"), badRequest("No new data supplied")},
		{"a system group", request{method: "PATCH", path: "/api/v1/user_groups/1", auth: adminAuth, body: []byte("name=x"), contentType: formType}, badRequest("Insufficient permission")},
		{"as a member who did not create it", group.as(memberAuth), badRequest("Insufficient permission")},
		{"as a guest", group.as(guestAuth), badRequest("Not allowed for guest users")},
		{"the name of another group", group.with("name", "ESCALATION"), badRequest("User group 'ESCALATION' already exists.")},
		{"a blank name", group.with("name", " "), badRequest("User group name cannot be empty.")},
		{"a role: name", group.with("name", "role:x"), badRequest("User group name cannot start with 'role:'.")},
		{"a good name, a description too long (all or nothing)", group.as(adminAuth, "description", strings.Repeat("d", 1025)), badRequest("description is too long (limit: 1024 characters)")},
	}
	add(group)
}

// Groups of the default fixture the cases use: system groups 1..7 (role:nobody first), then
// the fixture's user groups "support" (8: moderator and member) and "escalation" (9:
// administrator, with support as subgroup).
const (
	systemGroup     = "1"
	supportGroup    = "8"
	escalationGroup = "9"
)
