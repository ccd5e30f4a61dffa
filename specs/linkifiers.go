package specs

import (
	"encoding/json"
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

var _ = Describe("Operation 17: get linkifiers (GET /realm/linkifiers)", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	It("returns linkifiers: an array of objects with an integer id, a pattern and a URL template",
		harness.Req("OP17-01", "RES-23"), func() {
			t.AddLinkifier(harness.UniqueName("shape")+`-(?P<id>[0-9]+)`, "https://tracker.example.test/{id}")
			list := harness.Success(t.As(harness.Member).GET("/realm/linkifiers").Expect()).Value("linkifiers").Array()
			list.Length().Gt(0)
			list.Every(func(_ int, v *httpexpect.Value) {
				l := v.Object()
				l.Value("id").Number().IsInt()
				l.Value("pattern").String()
				l.Value("url_template").String()
			})
		})

	It("lists a linkifier added to the realm with its id, pattern and URL template",
		harness.Req("OP17-02"), func() {
			pattern := harness.UniqueName("added") + `-(?P<id>[0-9]+)`
			template := "https://tracker.example.test/issues/{id}"
			id := t.AddLinkifier(pattern, template)

			list := harness.Success(t.As(harness.Member).GET("/realm/linkifiers").Expect()).Value("linkifiers").Array()
			l := list.Find(func(_ int, v *httpexpect.Value) bool { return v.Object().Value("id").Raw() == float64(id) }).Object()
			l.Value("pattern").String().IsEqual(pattern)
			l.Value("url_template").String().IsEqual(template)
		})
})

// addLinkifierWith adds a linkifier with the given fields (POST /realm/filters as an
// administrator) and returns its id; it is deleted when the spec ends.
func addLinkifierWith(fields map[string]any) int {
	GinkgoHelper()
	t := harness.Current()
	req := t.As(harness.Admin).POST("/realm/filters")
	for k, v := range fields {
		req = req.WithFormField(k, v)
	}
	id := int(harness.Success(req.Expect()).Value("id").Number().IsInt().Raw())
	DeferCleanup(func() { t.As(harness.Admin).DELETE("/realm/filters/{id}", id).Expect() })
	return id
}

// listedLinkifiers returns GET /realm/linkifiers as a member.
func listedLinkifiers() *httpexpect.Array {
	GinkgoHelper()
	return harness.Success(harness.Current().As(harness.Member).GET("/realm/linkifiers").Expect()).Value("linkifiers").Array()
}

// linkifierByID finds a linkifier in the list by id.
func linkifierByID(list *httpexpect.Array, id int) *httpexpect.Object {
	GinkgoHelper()
	return list.Find(func(_ int, v *httpexpect.Value) bool { return v.Object().Value("id").Raw() == float64(id) }).Object()
}

// idsAmong returns the ids of the list that are in mine, in list order.
func idsAmong(list *httpexpect.Array, mine ...int) []int {
	GinkgoHelper()
	var out []int
	for _, id := range harness.IntsOf(list, "id") {
		if slices.Contains(mine, id) {
			out = append(out, id)
		}
	}
	return out
}

var _ = Describe("Linkifier objects", func() {
	It("carry example_input and reverse_template, set for a reverse linkifier, and alternative_url_templates",
		harness.Req("RES-24", "RES-25", "RES-26"), func() {
			prefix := harness.UniqueName("REV")
			alternative := "https://tracker.example.test/i/{id}"
			id := addLinkifierWith(map[string]any{
				"pattern": prefix + `-(?P<id>[0-9]+)`, "url_template": "https://tracker.example.test/issues/{id}",
				"example_input": prefix + "-123", "reverse_template": prefix + "-{id}",
				"alternative_url_templates": `["` + alternative + `"]`,
			})
			l := linkifierByID(listedLinkifiers(), id)
			l.Value("example_input").String().IsEqual(prefix + "-123")
			l.Value("reverse_template").String().IsEqual(prefix + "-{id}")
			l.Value("alternative_url_templates").Array().IsEqual([]string{alternative})
		})

	It("give example_input and reverse_template as a string or null and alternative_url_templates as an array of strings when none were set",
		harness.Req("RES-24", "RES-25", "RES-26"), func() {
			id := harness.Current().AddLinkifier(harness.UniqueName("plain")+`-(?P<id>[0-9]+)`, "https://tracker.example.test/{id}")
			l := linkifierByID(listedLinkifiers(), id)
			harness.ExpectStringOrNull(l.Value("example_input"))
			harness.ExpectStringOrNull(l.Value("reverse_template"))
			l.Value("alternative_url_templates").Array().Every(func(_ int, v *httpexpect.Value) { v.String() })
		})
})

var _ = Describe("Operation 17: the order of linkifiers", func() {
	// Where a new linkifier goes the document does not say; the order set with PATCH is the
	// reordering spec's. Here: the list has one order, whichever read shows it. Only this
	// spec's linkifiers are compared, as specs beside it add and delete their own.
	It("lists linkifiers in the realm's order: two reads agree", harness.Req("OP17-03"), func() {
		t := harness.Current()
		var mine []int
		for i := range 3 {
			mine = append(mine, t.AddLinkifier(fmt.Sprintf("%s%d-(?P<id>[0-9]+)", harness.UniqueName("order"), i), "https://tracker.example.test/{id}"))
		}
		first := idsAmong(listedLinkifiers(), mine...)
		Expect(first).To(ConsistOf(mine), "the list holds every linkifier added")
		Expect(idsAmong(listedLinkifiers(), mine...)).To(Equal(first))
	})
})

// Reordering names every linkifier of the realm, so it runs alone: a linkifier added beside
// it would make the list incomplete.
var _ = Describe("Reordering linkifiers (PATCH /realm/linkifiers)", Serial, func() {
	It("makes GET /realm/linkifiers return the order set", harness.Req("OP17-04", "OP17-03"), func() {
		t := harness.Current()
		var mine []int
		for i := range 3 {
			mine = append(mine, t.AddLinkifier(fmt.Sprintf("%s%d-(?P<id>[0-9]+)", harness.UniqueName("reorder"), i), "https://tracker.example.test/{id}"))
		}
		// Reverse this spec's linkifiers in place and keep every other where it is.
		order := harness.IntsOf(listedLinkifiers(), "id")
		reversed := slices.Clone(mine)
		slices.Reverse(reversed)
		next := 0
		for i, id := range order {
			if slices.Contains(mine, id) {
				order[i] = reversed[next]
				next++
			}
		}
		encoded, _ := json.Marshal(order)
		harness.Success(t.As(harness.Admin).PATCH("/realm/linkifiers").WithFormField("ordered_linkifier_ids", string(encoded)).Expect())
		Expect(harness.IntsOf(listedLinkifiers(), "id")).To(Equal(order))
	})
})
