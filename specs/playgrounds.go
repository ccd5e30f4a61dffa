package specs

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// playgroundTemplate is a valid RFC 6570 template with the one variable, code.
const playgroundTemplate = "https://play.example.test/?code={code}"

// addPlayground sends POST /realm/playgrounds as an administrator with the given fields;
// a field whose value is "" is left out, extra are more fields as name, value pairs. A
// playground that was created is removed after the spec.
func addPlayground(name, language, template string, extra ...any) *httpexpect.Response {
	req := harness.Current().As(harness.Current().User(harness.Admin)).POST("/realm/playgrounds")
	for k, v := range map[string]string{"name": name, "pygments_language": language, "url_template": template} {
		if v != "" {
			req = req.WithFormField(k, v)
		}
	}
	resp := ops.WithForm(req, extra...).Expect()
	if id, created := harness.CreatedID(resp); created {
		DeferCleanup(func() {
			harness.Current().As(harness.Current().User(harness.Admin)).DELETE("/realm/playgrounds/{id}", id).Expect()
		})
	}
	return resp
}

var _ = Describe("Operation 14: add a code playground (POST /realm/playgrounds)", func() {
	DescribeTable("creates a playground",
		func(check func(answer, listed *httpexpect.Object, name string)) {
			t := harness.Current()
			name := harness.UniqueName("playground")
			answer := harness.Success(addPlayground(name, "Python", playgroundTemplate))
			id := answer.Value("id").Raw()
			listed := t.StateOf(t.User(harness.Member), "realm_playgrounds").Value("realm_playgrounds").Array().
				Find(func(_ int, v *httpexpect.Value) bool { return v.Object().Value("id").Raw() == id })
			check(answer, listed.Object(), name)
		},
		Entry("answering its integer id", harness.Req("OP14-05"), func(answer, _ *httpexpect.Object, _ string) {
			answer.Value("id").Number().IsInt()
		}),
		Entry("which the realm lists by that id, an integer", harness.Req("RES-27"), func(_, listed *httpexpect.Object, _ string) {
			listed.Value("id").Number().IsInt()
		}),
		Entry("which the realm lists with its name and language", harness.Req("RES-28"), func(_, listed *httpexpect.Object, name string) {
			listed.Value("name").String().IsEqual(name)
			listed.Value("pygments_language").String().IsEqual("Python")
		}),
		Entry("from a url_template with one variable named code, which the realm lists", harness.Req("OP14-02", "RES-29"), func(_, listed *httpexpect.Object, _ string) {
			listed.Value("url_template").String().IsEqual(playgroundTemplate)
		}),
	)

	DescribeTable("requires name, pygments_language and url_template",
		func(name, language, template string) {
			harness.Fails(addPlayground(name, language, template))
		},
		Entry("without name", harness.Req("OP14-01"), "", "Python", playgroundTemplate),
		Entry("without pygments_language", harness.Req("OP14-01"), "missing-language", "", playgroundTemplate),
		Entry("without url_template", harness.Req("OP14-01"), "missing-template", "Python", ""),
	)

	// A refused playground is not stored either: the realm's list, read back, lacks its name.
	DescribeTable("refuses a url_template that does not have exactly one variable, named code",
		func(template string) {
			t := harness.Current()
			name := harness.UniqueName("bad-template")
			harness.Fails(addPlayground(name, "Python", template))
			listed := t.StateOf(t.User(harness.Member), "realm_playgrounds").Value("realm_playgrounds").Array()
			Expect(harness.StringsOf(listed, "name")).NotTo(ContainElement(name), "the refused playground is listed")
		},
		Entry("no variable at all", harness.Req("OP14-03"), "https://play.example.test/"),
		Entry("one variable with another name", harness.Req("OP14-03"), "https://play.example.test/?src={source}"),
		Entry("code and a second variable", harness.Req("OP14-04"), "https://play.example.test/{lang}?code={code}"),
		Entry("code twice in one expression with another", harness.Req("OP14-04"), "https://play.example.test/{?code,lang}"),
		Entry("a template that is not RFC 6570", harness.Req("RES-29"), "https://play.example.test/?code={code"),
		Entry("an expression with a reserved operator character", harness.Req("RES-29"), "https://play.example.test/{=code}"),
	)
})
