package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/catalog"
)

// writeRunHelp prints run's usage: every setting from harness.Settings (flag, environment
// variable, file key, default, meaning) and run's own flags from their definitions, so the
// help cannot drift from what the runner reads.
func writeRunHelp(w io.Writer, flags *flag.FlagSet) {
	fmt.Fprint(w, `Usage: chatconform run [--<setting> value …] [--ginkgo.<flag> …]

Runs the conformance suite against a chat server (without --url: against the in-process
reference fake on its default fixture) and writes conformance.json, conformance.html and
junit.xml to the report directory.

Settings. Each is a flag, an environment variable and, where a key is shown, a key of the YAML
file --config names; a flag wins over the variable, the variable over the file, the file over
the default. Flags take one dash or two; the older spellings -chatconform.<setting> still work.
`)
	for _, s := range harness.Settings {
		where := []string{}
		if s.Env != "" {
			where = append(where, "env "+s.Env)
		}
		if s.YAML != "" {
			where = append(where, "file "+s.YAML)
		}
		if s.Default != "" {
			where = append(where, "default "+s.Default)
		}
		name := "--" + s.Name
		if s.Flag == "" {
			name = s.YAML + " (file only)"
		}
		fmt.Fprintf(w, "  %s\n      %s\n      %s\n", name, strings.Join(where, " · "), s.Meaning)
	}
	fmt.Fprint(w, "\nSelection and run:\n")
	flags.VisitAll(func(f *flag.Flag) {
		if strings.Contains(f.Name, ".") || isSettingName(f.Name) {
			return // Ginkgo's, go test's and the settings'
		}
		fmt.Fprintf(w, "  --%s\n      %s\n", f.Name, f.Usage)
	})
	fmt.Fprint(w, `
Ginkgo's flags work with their prefix: --ginkgo.label-filter=req:OP06-01, --ginkgo.focus=REGEXP,
--ginkgo.skip=REGEXP, --ginkgo.v (every spec's name), --ginkgo.randomize-all, …

Exit status: 0 conformant (nothing applicable failed), 1 not conformant, 2 invalid settings
(including filters that select nothing), 3 the run could not be set up (the target unreachable,
credentials refused, an account without its role, the report directory not writable). For 2 and
3 one line says what to fix and where it was given.
`)
}

// isSettingName tells whether name is a setting's short flag name.
func isSettingName(name string) bool {
	for _, s := range harness.Settings {
		if s.Name == name && s.Flag != "" {
			return true
		}
	}
	return false
}

// unknownValue says which value of an --only-… flag selects nothing, and the nearest value that
// would: "--only-requirements: "OP6-01" is no requirement of the catalog (did you mean
// "OP06-01"?)".
func unknownValue(cat *catalog.Catalog, flag, item string) error {
	what := map[string]string{
		"only-requirements": "is no requirement of the catalog", "only-operations": "is no operation (1 to 21)",
		"only-sections": "starts no part or section of the document", "only-features": "is no feature of the catalog",
		"only-profile": "is no profile",
	}[flag]
	candidates := []string{}
	if flag == "only-profile" {
		candidates = append([]string{"core"}, extendedFeatures...)
	}
	for _, r := range cat.Requirements {
		switch flag {
		case "only-requirements":
			candidates = append(candidates, r.ID)
		case "only-operations":
			if n, ok := strings.CutPrefix(r.Area(), "OP"); ok {
				candidates = append(candidates, strings.TrimLeft(n, "0"))
			}
		case "only-sections":
			part, _, _ := strings.Cut(r.Section, " / ")
			candidates = append(candidates, part, r.Section)
		case "only-features":
			candidates = append(candidates, r.Feature)
		}
	}
	msg := fmt.Sprintf("--%s: %q %s", flag, item, what)
	if near := nearest(item, candidates); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return errors.New(msg)
}

// extendedFeatures are the optional features, each a profile of its own.
var extendedFeatures = []string{"push", "vcall", "jwt", "bot_storage", "reminders"}

// nearest is the candidate closest to item, case aside, within a third of its length in edits;
// "" when none is that close.
func nearest(item string, candidates []string) string {
	best, bestDistance := "", len(item)/3+2
	for _, c := range candidates {
		if d := distance(strings.ToLower(item), strings.ToLower(c)); d < bestDistance {
			best, bestDistance = c, d
		}
	}
	return best
}
