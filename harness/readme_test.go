package harness

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeSettingsTable keeps the README's settings table identical to Settings, so the
// documentation cannot drift from the flags, variables and YAML keys the code reads.
func TestReadmeSettingsTable(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- settings:begin -->\n")
	table, _, ok2 := strings.Cut(rest, "<!-- settings:end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no settings:begin/settings:end markers")
	}
	if want := SettingsMarkdown(); strings.TrimSpace(table) != strings.TrimSpace(want) {
		t.Errorf("README.md settings table is out of date; replace it with:\n%s", want)
	}
}
