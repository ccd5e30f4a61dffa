package harness

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSettingsReferenceTable keeps the settings table of docs/settings.md identical to Settings,
// so the documentation cannot drift from the flags, variables and YAML keys the code reads.
func TestSettingsReferenceTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/settings.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- settings:begin -->\n")
	table, _, ok2 := strings.Cut(rest, "<!-- settings:end -->")
	if !ok || !ok2 {
		t.Fatal("docs/settings.md has no settings:begin/settings:end markers")
	}
	if want := SettingsMarkdown(); strings.TrimSpace(table) != strings.TrimSpace(want) {
		t.Errorf("docs/settings.md settings table is out of date; replace it with:\n%s", want)
	}
}

// TestRepositoryStandsAlone: a clone has no files beside the repository, so no source or
// document in it may point at them (the API document and the design are in docs/).
func TestRepositoryStandsAlone(t *testing.T) {
	// Assembled from parts, so that this file does not hold the references it looks for.
	dir, design := "shared", "DESIGN"
	outside := []string{"../" + dir, dir + "/spec/", dir + "/reference/", design + " decision", design + ".md", "real-server" + ".md"}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "reports", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".yaml", ".yml", ".mjs", ".json", "":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, ref := range outside {
			if bytes.Contains(data, []byte(ref)) {
				t.Errorf("%s refers to %q, outside the repository", path, ref)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
