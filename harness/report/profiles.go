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
		if target == &core {
			core.add(r)
		} else {
			target.Counts[r.Status]++
		}
	}
	out := append([]Profile{core}, extended...)
	for i := range out {
		out[i].Result = resultOf(out[i].Counts)
	}
	return out
}

// profileOf is one profile of the requirements given, with their features.
func profileOf(name string, reqs []Requirement) Profile {
	p := Profile{Name: name, Counts: map[Status]int{}}
	for _, r := range reqs {
		p.add(r)
	}
	p.Result = resultOf(p.Counts)
	return p
}

// add counts a requirement in the profile and adds its feature to the profile's.
func (p *Profile) add(r Requirement) {
	p.Counts[r.Status]++
	if !slices.Contains(p.Features, r.Feature) {
		p.Features = append(p.Features, r.Feature)
	}
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
