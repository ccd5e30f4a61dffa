package api_test

// PATCH /user_groups/{id}: renaming, describing, deactivating and reactivating a group, and
// what clients with and without include_deactivated_groups are told.

import (
	"fmt"
	"testing"
)

func TestUpdateGroup(t *testing.T) {
	ts := newServer(t)
	id := requireSuccess(t, "create", post(t, ts.URL, memberAuth, "/api/v1/user_groups/create", "name", "cooks", "description", "", "members", "[4]"))["group_id"]
	path := fmt.Sprintf("/api/v1/user_groups/%v", id)
	knows := evRegister(t, ts.URL, ownerAuth, "event_types", `["user_group"]`, "client_capabilities", `{"include_deactivated_groups":true}`)
	old := evRegister(t, ts.URL, adminAuth, "event_types", `["user_group"]`)

	requireSuccess(t, "rename and describe", patch(t, ts.URL, memberAuth, path, "name", " Chefs ", "description", "they cook"))
	requireSuccess(t, "deactivate", patch(t, ts.URL, memberAuth, path, "deactivated", "true"))
	wantRefusal(t, "rename a deactivated group", patch(t, ts.URL, memberAuth, path, "name", "x"), "User group is deactivated.")
	requireSuccess(t, "reactivate", patch(t, ts.URL, memberAuth, path, "deactivated", "false"))

	summary := func(evs []map[string]any) string {
		var out []string
		for _, ev := range evs {
			switch ev["op"] {
			case "update":
				out = append(out, "update "+canonical(ev["data"]))
			case "add":
				out = append(out, "add "+ev["group"].(map[string]any)["name"].(string))
			default:
				out = append(out, fmt.Sprint(ev["op"]))
			}
		}
		return fmt.Sprint(out)
	}
	if got := summary(evPoll(t, ts.URL, ownerAuth, knows, -1, true)); got != `[update {"name":"Chefs"} update {"description":"they cook"} update {"deactivated":true} update {"deactivated":false}]` {
		t.Errorf("events of a client that knows deactivated groups: %s", got)
	}
	if got := summary(evPoll(t, ts.URL, adminAuth, old, -1, true)); got != `[update {"name":"Chefs"} update {"description":"they cook"} remove add Chefs]` {
		t.Errorf("events of a client that does not: %s", got)
	}
}

// GET /user_groups/{id}/subgroups: the direct subgroups, or all reached through them, in ID order.
func TestGroupSubgroups(t *testing.T) {
	base := newServer(t).URL
	// top has escalation as a subgroup, which has support.
	top := fmt.Sprint(requireSuccess(t, "create", post(t, base, ownerAuth, "/api/v1/user_groups/create",
		"name", "top", "description", "", "members", "[]", "subgroups", "["+escalationGroup+"]"))["group_id"])
	for _, c := range []struct{ group, query, want string }{
		{top, "", "[" + supportGroup + "," + escalationGroup + "]"},
		{top, "direct_subgroup_only=true", "[" + escalationGroup + "]"},
		{escalationGroup, "", "[" + supportGroup + "]"},
		{supportGroup, "", "[]"},
	} {
		got := requireSuccess(t, "subgroups", get(t, base, memberAuth, "/api/v1/user_groups/"+c.group+"/subgroups", c.query))["subgroups"]
		if canonical(got) != c.want {
			t.Errorf("subgroups of %s (%s): %s, want %s", c.group, c.query, canonical(got), c.want)
		}
	}
}
