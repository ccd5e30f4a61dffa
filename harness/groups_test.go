package harness

import (
	"encoding/json"
	"net/http"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// fakeGroups are the test fake's user groups, answered in the form of the real server at
// level (0: the newest).
type fakeGroups struct {
	level int
	list  []*fakeGroup
}

type fakeGroup struct {
	ID                 int
	Name               string
	Members, Subgroups []int
	Deactivated        bool
	Deleted            bool
}

func (g *fakeGroups) at(level int) bool { return g.level == 0 || g.level >= level }

func (g *fakeGroups) byID(id string) *fakeGroup {
	n, _ := strconv.Atoi(id)
	if n < 1 || n > len(g.list) {
		return nil
	}
	return g.list[n-1]
}

func (f *testFake) routeGroups(mux *http.ServeMux) {
	ints := func(s string) []int {
		var out []int
		_ = json.Unmarshal([]byte(s), &out)
		return out
	}
	mux.HandleFunc("POST /api/v1/user_groups/create", f.authed(func(w http.ResponseWriter, r *http.Request, _ *fakeUser) {
		g := &fakeGroup{ID: len(f.groups.list) + 1, Name: r.FormValue("name"), Members: ints(r.FormValue("members"))}
		if f.groups.at(311) {
			g.Subgroups = ints(r.FormValue("subgroups"))
		}
		f.groups.list = append(f.groups.list, g)
		if f.groups.at(317) {
			success(w, map[string]any{"group_id": g.ID})
			return
		}
		success(w, nil)
	}))
	mux.HandleFunc("GET /api/v1/user_groups", f.authed(func(w http.ResponseWriter, _ *http.Request, _ *fakeUser) {
		var list []map[string]any
		for _, g := range f.groups.list {
			if !g.Deleted {
				list = append(list, map[string]any{"id": g.ID, "name": g.Name})
			}
		}
		success(w, map[string]any{"user_groups": list})
	}))
	mux.HandleFunc("POST /api/v1/user_groups/{id}/subgroups", f.authed(func(w http.ResponseWriter, r *http.Request, _ *fakeUser) {
		g := f.groups.byID(r.PathValue("id"))
		g.Subgroups = append(g.Subgroups, ints(r.FormValue("add"))...)
		success(w, nil)
	}))
	mux.HandleFunc("POST /api/v1/user_groups/{id}/deactivate", f.authed(func(w http.ResponseWriter, r *http.Request, _ *fakeUser) {
		f.groups.byID(r.PathValue("id")).Deactivated = true
		success(w, nil)
	}))
	mux.HandleFunc("DELETE /api/v1/user_groups/{id}", f.authed(func(w http.ResponseWriter, r *http.Request, _ *fakeUser) {
		f.groups.byID(r.PathValue("id")).Deleted = true
		success(w, nil)
	}))
}

// NewGroup on a real server of each form: subgroups at creation from 311 (added afterwards
// before), group_id in the answer from 317 (found by name before), deactivated from 290 when
// the spec ends (deleted before).
var _ = Describe("user groups on older servers", Ordered, func() {
	var fake *testFake
	cases := []struct {
		level                int
		deactivated, deleted bool
	}{{500, true, false}, {316, true, false}, {310, true, false}, {289, false, true}}
	for _, c := range cases {
		It("creates a group with its members and subgroups at level "+strconv.Itoa(c.level), func() {
			var tgt *Target
			fake, tgt = connectToTestFake()
			fake.groups.level = c.level
			tgt.FeatureLevel = c.level
			inner := tgt.NewGroup([]int{2})
			outer := tgt.NewGroup([]int{3}, inner)
			Expect(fake.groups.list).To(HaveLen(2))
			Expect(outer).To(Equal(2), "the new group's ID")
			Expect(fake.groups.list[1].Members).To(Equal([]int{3}))
			Expect(fake.groups.list[1].Subgroups).To(Equal([]int{inner}))
		})
		It("retires the groups when the spec ends at level "+strconv.Itoa(c.level), func() {
			for _, g := range fake.groups.list {
				Expect(g.Deactivated).To(Equal(c.deactivated), "group %d deactivated", g.ID)
				Expect(g.Deleted).To(Equal(c.deleted), "group %d deleted", g.ID)
			}
		})
	}
})
