package check_test

import (
	"testing"

	"github.com/chatconform/chatconform/fakeserver/openapi/check"
)

func TestDescriptionIsValid(t *testing.T) {
	if _, err := check.New(); err != nil {
		t.Fatal(err)
	}
}
