package secrets

import (
	"slices"
	"testing"
)

// TestParams pins the one list: the union of what the journal and the harness hid before they
// shared it (the harness lacked old_password and new_password). Shrinking it shows credentials.
func TestParams(t *testing.T) {
	want := []string{"api_key", "jwt_key", "new_password", "old_password", "password", "push_key", "token"}
	got := slices.Sorted(slices.Values(Params))
	if !slices.Equal(got, want) {
		t.Errorf("Params = %v, want %v", got, want)
	}
	for _, name := range []string{"api_key", "Password", "OLD_PASSWORD", "new_password"} {
		if !IsParam(name) {
			t.Errorf("IsParam(%q) = false", name)
		}
	}
	for _, name := range []string{"email", "password_hint", "key"} {
		if IsParam(name) {
			t.Errorf("IsParam(%q) = true", name)
		}
	}
}
