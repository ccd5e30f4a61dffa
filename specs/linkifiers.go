package specs

import (
	"encoding/json"
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 17: get linkifiers (GET /realm/linkifiers)", func() {
	var t *harness.Target
	BeforeEach(func() {
		t = harness.Current()
	})

	It("returns linkifiers: an array of objects with an integer id, a pattern and a URL template",
		harness.Req("OP17-01", "RES-23"), func() {
			t.AddLinkifier(harness.UniqueName("shape")+`-(?P<id>[0-9]+)`, "https://tracker.example.test/{id}")
			list := harness.Success(t.As(t.User(harness.Member)).GET("/realm/linkifiers").Expect()).Value("linkifiers").Array()
			harness.EachElement(list, "linkifiers", func(v *httpexpect.Value) {
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

			list := harness.Success(t.As(t.User(harness.Member)).GET("/realm/linkifiers").Expect()).Value("linkifiers").Array()
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
	req := t.As(t.User(harness.Admin)).POST("/realm/filters")
	for k, v := range fields {
		req = req.WithFormField(k, v)
	}
	id := int(harness.Success(req.Expect()).Value("id").Number().IsInt().Raw())
	DeferCleanup(func() { t.As(t.User(harness.Admin)).DELETE("/realm/filters/{id}", id).Expect() })
	return id
}

// listedLinkifiers returns GET /realm/linkifiers as a member.
func listedLinkifiers() *httpexpect.Array {
	GinkgoHelper()
	return harness.Success(harness.Current().As(harness.Current().User(harness.Member)).GET("/realm/linkifiers").Expect()).Value("linkifiers").Array()
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
	const alternative = "https://tracker.example.test/i/{id}"
	var prefix string
	// reverse adds a reverse linkifier with all three optional fields set.
	reverse := func() *httpexpect.Object {
		prefix = harness.UniqueName("REV")
		id := addLinkifierWith(map[string]any{
			"pattern": prefix + `-(?P<id>[0-9]+)`, "url_template": "https://tracker.example.test/issues/{id}",
			"example_input": prefix + "-123", "reverse_template": prefix + "-{id}",
			"alternative_url_templates": `["` + alternative + `"]`,
		})
		return linkifierByID(listedLinkifiers(), id)
	}
	// plain adds a linkifier with none of them.
	plain := func() *httpexpect.Object {
		id := harness.Current().AddLinkifier(harness.UniqueName("plain")+`-(?P<id>[0-9]+)`, "https://tracker.example.test/{id}")
		return linkifierByID(listedLinkifiers(), id)
	}

	// The real server has example_input and reverse_template from 471, alternative_url_templates
	// from 478.

	DescribeTable("carry",
		func(add func() *httpexpect.Object, check func(l *httpexpect.Object)) { check(add()) },
		Entry("example_input, set for a reverse linkifier", harness.Req("RES-24"), reverse, func(l *httpexpect.Object) {
			l.Value("example_input").String().IsEqual(prefix + "-123")
		}),
		Entry("reverse_template, as set", harness.Req("RES-25"), reverse, func(l *httpexpect.Object) {
			l.Value("reverse_template").String().IsEqual(prefix + "-{id}")
		}),
		// {{ and }} stand for literal braces when the template is used, and are kept as set.
		Entry("reverse_template with literal braces, as set", harness.Req("RES-25"), func() *httpexpect.Object {
			prefix = harness.UniqueName("BRACE")
			id := addLinkifierWith(map[string]any{
				"pattern": `\{` + prefix + `-(?P<id>[0-9]+)\}`, "url_template": "https://tracker.example.test/issues/{id}",
				"example_input": "{" + prefix + "-123}", "reverse_template": "{{" + prefix + "-{id}}}",
			})
			return linkifierByID(listedLinkifiers(), id)
		}, func(l *httpexpect.Object) {
			l.Value("reverse_template").String().IsEqual("{{" + prefix + "-{id}}}")
		}),
		Entry("alternative_url_templates, as set", harness.Req("RES-26"), reverse, func(l *httpexpect.Object) {
			l.Value("alternative_url_templates").Array().IsEqual([]string{alternative})
		}),
		Entry("example_input as a string or null when none was set", harness.Req("RES-24"), plain, func(l *httpexpect.Object) {
			harness.ExpectStringOrNull(l.Value("example_input"))
		}),
		Entry("reverse_template as a string or null when none was set", harness.Req("RES-25"), plain, func(l *httpexpect.Object) {
			harness.ExpectStringOrNull(l.Value("reverse_template"))
		}),
		// None set: an empty array (the strings are checked where one was set, above).
		Entry("alternative_url_templates as an empty array when none were set", harness.Req("RES-26"), plain, func(l *httpexpect.Object) {
			l.Value("alternative_url_templates").Array().IsEmpty()
		}),
	)

	It("are refused as a reverse linkifier without example_input", harness.Req("RES-24"), func() {
		t := harness.Current()
		p := harness.UniqueName("NOEX")
		resp := t.As(t.User(harness.Admin)).POST("/realm/filters").
			WithFormField("pattern", p+`-(?P<id>[0-9]+)`).WithFormField("url_template", "https://tracker.example.test/{id}").
			WithFormField("reverse_template", p+"-{id}").Expect()
		if ops.Envelope(resp).Success {
			// Not left behind by a server that got it wrong.
			id := int(harness.Success(resp).Value("id").Number().Raw())
			DeferCleanup(func() { t.As(t.User(harness.Admin)).DELETE("/realm/filters/{id}", id).Expect() })
		}
		harness.Fails(resp)
	})
})

// Reordering names every linkifier of the realm, so it runs alone: a linkifier added beside
// it would make the list incomplete.
var _ = Describe("Reordering linkifiers (PATCH /realm/linkifiers)", Serial, func() {
	// reorder adds three linkifiers, reverses them in place in the realm's order (every other
	// linkifier keeps its place) and returns their ids and the whole order set.
	reorder := func(t *harness.Target) (mine, order []int) {
		GinkgoHelper()
		for i := range 3 {
			mine = append(mine, t.AddLinkifier(fmt.Sprintf("%s%d-(?P<id>[0-9]+)", harness.UniqueName("reorder"), i), "https://tracker.example.test/{id}"))
		}
		order = harness.IntsOf(listedLinkifiers(), "id")
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
		harness.Success(t.As(t.User(harness.Admin)).PATCH("/realm/linkifiers").WithFormField("ordered_linkifier_ids", string(encoded)).Expect())
		return mine, order
	}

	It("makes GET /realm/linkifiers return the order set", harness.Req("OP17-04"), func() {
		_, order := reorder(harness.Current())
		Expect(harness.IntsOf(listedLinkifiers(), "id")).To(Equal(order))
	})

	// The realm's order is the one set, not the order of creation or of ids: it holds when
	// another linkifier comes and goes. Where a new one goes the document does not say.
	It("lists linkifiers in the realm's order, which outlives other changes", harness.Req("OP17-03"), func() {
		t := harness.Current()
		mine, _ := reorder(t)
		other := t.AddLinkifier(harness.UniqueName("other")+`-(?P<id>[0-9]+)`, "https://tracker.example.test/{id}")
		harness.Success(t.As(t.User(harness.Admin)).DELETE("/realm/filters/{id}", other).Expect())
		want := slices.Clone(mine)
		slices.Reverse(want)
		Expect(idsAmong(listedLinkifiers(), mine...)).To(Equal(want), "this spec's linkifiers in the order set, after another came and went")
	})
})
