package buildversion

import (
	"runtime/debug"
	"testing"
)

// TestFrom: a stamp wins; without one, a `go install …@version` reports the module's version
// and a build in a checkout its commit; a binary nothing identifies is "dev".
func TestFrom(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "a75a550ec1227f196374fea6f85a1e59ccbdb9b2"
	for _, tc := range []struct {
		name    string
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"stamped", "v1.4.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"}}, "v1.4.0"},
		{"go install at a tag", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"}}, "v1.3.0"},
		{"a pseudo-version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125152432-a75a550ec122+dirty"}, Settings: vcs(rev, "true")},
			"v0.0.0-20261125152432-a75a550ec122+dirty"},
		{"a clean checkout", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, "a75a550ec122"},
		{"a changed checkout", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "a75a550ec122-dirty"},
		{"nothing recorded", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build information", "dev", nil, "dev"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := From(tc.stamped, tc.info, tc.info != nil); got != tc.want {
				t.Errorf("From(%q, …) = %q, want %q", tc.stamped, got, tc.want)
			}
		})
	}
}
