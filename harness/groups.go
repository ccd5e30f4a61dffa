package harness

import (
	"fmt"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
	"net/url"
	"strconv"
)

// NewGroup creates a user group with a unique name (POST /user_groups/create, as a staff
// administrator) with these direct members (user IDs) and direct subgroups (group IDs), and
// returns its ID. The group is deactivated when the spec ends, as groups cannot be deleted.
// Failure fails the spec.
//
// On an older real server (its changelog) the same is done in the forms it takes: subgroups
// at creation from level 311 (added afterwards before), the answer's group_id from 317 (the
// group found by its name before), and deactivation from 290 (deletion before).
func (t *Target) NewGroup(members []int, subgroups ...int) int {
	ginkgo.GinkgoHelper()
	owner := t.staffer()
	if members == nil {
		members = []int{}
	}
	name := UniqueName("group")
	params := url.Values{"name": {name}, "description": {"made by chatconform"}, "members": {jsonParam(members)}}
	if len(subgroups) > 0 && t.FeatureLevel >= levelSubgroupsAtCreation {
		params.Set("subgroups", jsonParam(subgroups))
	}
	obj, err := t.api("POST", "/user_groups/create", &owner, params)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: creating a user group")
	id, ok := obj.int("group_id")
	if !ok && t.FeatureLevel < levelGroupIDAnswered {
		id, err = t.groupNamed(name)
		g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: finding the new user group %q", name)
		ok = true
	}
	g.Expect(ok).To(gomega.BeTrue(), "harness: POST /user_groups/create returned no integer group_id")
	ginkgo.DeferCleanup(func() {
		// Best effort: a spec may have deactivated it already.
		if t.FeatureLevel >= levelGroupDeactivation {
			_, _ = t.api("POST", "/user_groups/"+strconv.Itoa(id)+"/deactivate", &owner, nil)
		} else {
			_, _ = t.api("DELETE", "/user_groups/"+strconv.Itoa(id), &owner, nil)
		}
	})
	if len(subgroups) > 0 && t.FeatureLevel < levelSubgroupsAtCreation {
		t.AddSubgroups(id, subgroups...)
	}
	return id
}

// groupNamed finds a user group's ID by its name in GET /user_groups; it is an error when no
// group has the name.
func (t *Target) groupNamed(name string) (int, error) {
	owner := t.staffer() // any administrator reads the groups
	obj, err := t.api("GET", "/user_groups", &owner, nil)
	if err != nil {
		return 0, fmt.Errorf("listing the user groups: %w", err)
	}
	groups, _ := obj["user_groups"].([]any)
	for _, raw := range groups {
		if group, _ := raw.(map[string]any); group["name"] == name {
			id, ok := object(group).int("id")
			if !ok {
				return 0, fmt.Errorf("GET /user_groups: the group named %q has no integer id", name)
			}
			return id, nil
		}
	}
	return 0, fmt.Errorf("the target has no user group named %q", name)
}

// AddSubgroups adds direct subgroups to a group (POST /user_groups/{id}/subgroups, as a staff
// administrator). Failure fails the spec.
func (t *Target) AddSubgroups(group int, subgroups ...int) {
	ginkgo.GinkgoHelper()
	owner := t.staffer()
	_, err := t.api("POST", "/user_groups/"+strconv.Itoa(group)+"/subgroups", &owner, url.Values{"add": {jsonParam(subgroups)}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: adding subgroups %v to group %d", subgroups, group)
}

// SystemGroupID returns the ID of one of the target's system user groups by its name
// ("role:administrators", "role:members", "role:everyone", …), as GET /user_groups lists them.
func (t *Target) SystemGroupID(name string) int {
	ginkgo.GinkgoHelper()
	id, err := t.groupNamed(name)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: finding a system user group")
	return id
}
