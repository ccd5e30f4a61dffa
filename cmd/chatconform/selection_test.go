package main

import (
	"strings"
	"testing"
)

// TestSelectionValues: an --only-… value that selects nothing is named in the error, with the
// nearest value that would select something; good values give a label filter.
func TestSelectionValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		sel  selection
		want string // the error, or "" for a filter
	}{
		{"a requirement", selection{requirements: "OP06-01"}, ""},
		{"a mistyped requirement", selection{requirements: "OP06-01,OP6-01"}, `--only-requirements: "OP6-01" is no requirement of the catalog (did you mean "OP06-01"?)`},
		{"an operation", selection{operations: "6"}, ""},
		{"no such operation", selection{operations: "22"}, `--only-operations: "22" is no operation (1 to 21)`},
		{"a mistyped part", selection{sections: "Erors"}, `--only-sections: "Erors" starts no part or section of the document (did you mean "Errors"?)`},
		{"a mistyped feature", selection{features: "mesages"}, `--only-features: "mesages" is no feature of the catalog (did you mean "messages"?)`},
		{"a mistyped profile", selection{profile: "pus"}, `--only-profile: "pus" is no profile (did you mean "push"?)`},
		{"nothing in common", selection{operations: "6", features: "push"}, "select no requirement of the catalog together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			filter, err := tc.sel.labelFilter()
			switch {
			case tc.want == "" && (err != nil || !strings.HasPrefix(filter, "req:")):
				t.Errorf("filter %q, error %v: want a filter", filter, err)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want) && !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
