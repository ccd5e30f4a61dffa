package specs

import (
	. "github.com/onsi/ginkgo/v2"

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
