package main

import (
	"slices"
	"testing"
)

// TestCPUList: the kernel's CPU lists (Cpus_allowed_list) expand to the CPUs they name, in
// order, so that -pin takes the first two the process may use.
func TestCPUList(t *testing.T) {
	for _, tc := range []struct {
		list string
		want []string
	}{
		{"0-1", []string{"0", "1"}},
		{"0", []string{"0"}},
		{"2,5-7", []string{"2", "5", "6", "7"}},
		{"3,1", []string{"3", "1"}},
		{"", nil},
		{"x,4", []string{"4"}},
	} {
		if got := cpuList(tc.list); !slices.Equal(got, tc.want) {
			t.Errorf("cpuList(%q) = %q, want %q", tc.list, got, tc.want)
		}
	}
}
