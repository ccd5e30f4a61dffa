// Package buildversion names the build a binary came from when no release stamped it:
// `go install …@v1.2.0` records the module version, a build in a git checkout the commit.
package buildversion

import "runtime/debug"

// Unstamped is the version of a binary nothing identifies.
const Unstamped = "dev"

// Of returns stamped (set with -ldflags -X) unless it is empty or Unstamped, else what the
// binary's build information records.
func Of(stamped string) string {
	info, ok := debug.ReadBuildInfo()
	return From(stamped, info, ok)
}

// From is Of with the build information given: the main module's version (a tagged
// `go install`), else the commit the binary was built from, marked -dirty when the checkout
// had changes, else Unstamped.
func From(stamped string, info *debug.BuildInfo, ok bool) string {
	if stamped != "" && stamped != Unstamped {
		return stamped
	}
	if !ok || info == nil {
		return Unstamped
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	// Since Go 1.24 a build in a checkout also gets a pseudo-version such as
	// v0.0.0-20251125152432-a75a550ec122+dirty; a tag gives v1.2.0.
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	if rev := settings["vcs.revision"]; rev != "" {
		rev = rev[:min(len(rev), 12)]
		if settings["vcs.modified"] == "true" {
			rev += "-dirty"
		}
		return rev
	}
	return Unstamped
}
