//go:build !mutants

// Package mutation holds the fake's mutation points: one-line hooks at which a mutant (the
// fake with one documented rule broken) or a benign variant (the fake making another choice
// the document leaves open) departs from the reference behaviour. Only a build with the
// mutants tag can turn one on (cmd/mutants builds one and starts it with the point's name);
// in every other build On is the constant false, so the compiler drops the hooks and the
// reference fake carries no switch and no cost.
package mutation

// On reports whether the named mutation point is the one this process was started with.
func On(string) bool { return false }
