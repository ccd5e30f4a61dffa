package harness

import (
	"testing"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/gomega"
)

// The each-helpers must fail on an empty collection (a vacuous check is the bug they exist
// for) and on one bad element among good ones, and pass when every element is good.
func TestEachHelpersFailOnEmptyAndOnOneBadElement(t *testing.T) {
	gomega.RegisterTestingT(t)
	isString := func(v *httpexpect.Value) { v.String() }
	cases := []struct {
		name     string
		elements []any
		fails    bool
	}{
		{"empty", []any{}, true},
		{"one bad element among good ones", []any{"a", 1.0, "c"}, true},
		{"one bad element alone", []any{false}, true},
		{"every element good", []any{"a", "b"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := map[string]any{}
			for i, e := range c.elements {
				m[string(rune('a'+i))] = e
			}
			rec := &recorder{}
			checks := map[string]func(){
				"EachElement": func() { EachElement(httpexpect.NewArray(rec, c.elements), "the list", isString) },
				"Each": func() {
					Each(c.elements, "the list", func(e any) { gomega.Expect(e).To(gomega.BeAssignableToTypeOf("")) })
				},
				"EachEntry": func() {
					EachEntry(m, "the map", func(_ string, e any) { gomega.Expect(e).To(gomega.BeAssignableToTypeOf("")) })
				},
				"EachField": func() {
					EachField(httpexpect.NewObject(rec, m), "the object", func(_ string, v *httpexpect.Value) { v.String() })
				},
			}
			for name, check := range checks {
				failures := append(gomega.InterceptGomegaFailures(check), rec.take()...)
				if got := len(failures) > 0; got != c.fails {
					t.Errorf("%s: failed %t (%q), want %t", name, got, failures, c.fails)
				}
			}
		})
	}
}
