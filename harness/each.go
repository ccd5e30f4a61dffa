package harness

import (
	"maps"
	"slices"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// A rule about every element of a collection, checked on an empty one, checks nothing: a
// server that gets every element wrong passes it as long as it sends none. The helpers below
// check each element and fail when there is none, so a spec that means "each" must first make
// at least one element exist.

// EachElement runs check on every element of arr and fails when arr is empty; what names the
// collection in the failure.
func EachElement(arr *httpexpect.Array, what string, check func(v *httpexpect.Value)) {
	ginkgo.GinkgoHelper()
	elements := arr.Iter()
	gomega.Expect(elements).NotTo(gomega.BeEmpty(), "%s is empty: a check of each element would check nothing", what)
	for _, v := range elements {
		check(&v)
	}
}

// Each runs check on every item and fails when there is none; what names the items in the
// failure.
func Each[T any](items []T, what string, check func(item T)) {
	ginkgo.GinkgoHelper()
	gomega.Expect(items).NotTo(gomega.BeEmpty(), "%s is empty: a check of each element would check nothing", what)
	for _, item := range items {
		check(item)
	}
}

// EachEntry runs check on every entry of m, in key order, and fails when m is empty; what
// names the map in the failure.
func EachEntry[V any](m map[string]V, what string, check func(key string, value V)) {
	ginkgo.GinkgoHelper()
	gomega.Expect(m).NotTo(gomega.BeEmpty(), "%s is empty: a check of each entry would check nothing", what)
	for _, key := range slices.Sorted(maps.Keys(m)) {
		check(key, m[key])
	}
}

// EachField runs check on every field of obj, in key order, and fails when obj has none.
func EachField(obj *httpexpect.Object, what string, check func(key string, v *httpexpect.Value)) {
	ginkgo.GinkgoHelper()
	EachEntry(obj.Raw(), what, func(key string, _ any) {
		check(key, obj.Value(key))
	})
}
