package report

import "slices"

// Profile is a group of requirements a server passes as a whole, as conformance reports of
// this field present them: the core every server must pass, and one extended profile per
// optional feature.
type Profile struct {
	Name     string   `json:"name"`
	Features []string `json:"features"`
	// Result is success (every applicable requirement passed), partial (none failed, some
	// were not fully checked), failure (some failed), or not-applicable (none applies).
	Result string         `json:"result"`
	Counts map[Status]int `json:"counts"`
}

// extendedProfiles are the optional features, each its own profile; every other feature of
// the catalog is core.
var extendedProfiles = []struct {
	name     string
	features []string
}{
	{"push notifications (E2EE device registration)", []string{"push"}},
	{"video calls", []string{"vcall"}},
	{"JWT authentication", []string{"jwt"}},
	{"bot storage", []string{"bot_storage"}},
	{"message reminders", []string{"reminders"}},
}

// profiles groups the requirements' statuses into the core profile and the extended ones.
func profiles(reqs []Requirement) []Profile {
	core := Profile{Name: "core", Counts: map[Status]int{}}
	extended := make([]Profile, len(extendedProfiles))
	for i, p := range extendedProfiles {
		extended[i] = Profile{Name: p.name, Features: p.features, Counts: map[Status]int{}}
	}
	for _, r := range reqs {
		target := &core
		for i, p := range extendedProfiles {
			if slices.Contains(p.features, r.Feature) {
				target = &extended[i]
			}
		}
		target.Counts[r.Status]++
		if target == &core && !slices.Contains(core.Features, r.Feature) {
			core.Features = append(core.Features, r.Feature)
		}
	}
	out := append([]Profile{core}, extended...)
	for i := range out {
		out[i].Result = resultOf(out[i].Counts)
	}
	return out
}

func resultOf(c map[Status]int) string {
	switch {
	case c[Failed]+c[Blocked] > 0:
		return "failure"
	case c[Partial]+c[Skipped]+c[Pending] > 0:
		return "partial"
	case c[Passed] == 0:
		return "not-applicable"
	}
	return "success"
}

func (p Profile) name() string { return p.Name + ":" }

// Count is the number of the profile's requirements with the status, for the HTML template.
func (p Profile) Count(status string) int { return p.Counts[Status(status)] }
