//go:build mutants

package mutation

import (
	"os"
	"sync"
)

// Env names the mutation point a mutants build turns on; HitsEnv names a file the build
// creates the first time that point is reached, so the harness can tell a survivor that no
// spec reached from one that a spec reached without noticing.
const (
	Env     = "CHATCONFORM_MUTANT"
	HitsEnv = "CHATCONFORM_MUTANT_HITS"
)

var (
	active = os.Getenv(Env)
	hits   = os.Getenv(HitsEnv)
	once   sync.Once
)

// On reports whether the named mutation point is the one this process was started with.
func On(name string) bool {
	if name != active || active == "" {
		return false
	}
	if hits != "" {
		once.Do(func() { _ = os.WriteFile(hits, []byte(name+"\n"), 0o644) })
	}
	return true
}
