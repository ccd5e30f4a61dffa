package harness

import (
	"testing"
)

func TestRoleCode(t *testing.T) {
	if RoleCode(Owner) != 100 || RoleCode(Guest) != 600 || RoleCode(Bot) != 0 {
		t.Error("role codes")
	}
}
