package specs_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs"
)

// TestConformance runs the whole suite: against the in-process fake by default, or against
// the target that the chatconform settings name. It calls Ginkgo directly (not only through
// specs.Run) because the ginkgo CLI recognises a suite by its test files importing Ginkgo; a
// package it does not recognise runs as a plain go test, without -p or any Ginkgo flag.
func TestConformance(t *testing.T) {
	RegisterFailHandler(harness.RedactingFail) // ginkgo.Fail, with credentials redacted
	RunSpecs(t, specs.SuiteName)
}
