//go:build !mutants

package mutation

import "testing"

// Without the mutants tag no environment turns a point on.
func TestOffWithoutTag(t *testing.T) {
	t.Setenv("CHATCONFORM_MUTANT", "recipient-id-per-message")
	if On("recipient-id-per-message") || On("") {
		t.Fatal("a mutation point is on in a build without the mutants tag")
	}
}
