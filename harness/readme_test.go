package harness

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness/doccheck"
)

// documents are the README and the pages under docs/ it leads to, relative to this package.
func documents(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, path := range append(paths, "../README.md") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[path] = string(data)
	}
	return out
}

// TestDocumentLinks: every relative link of the README and docs/ leads to a file of the
// repository.
func TestDocumentLinks(t *testing.T) {
	for path, text := range documents(t) {
		for _, link := range doccheck.Links(text) {
			if strings.Contains(link, "://") || strings.HasPrefix(link, "#") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, _, _ := strings.Cut(link, "#")
			target = filepath.Join(filepath.Dir(path), target)
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links %s, which does not exist", path, link)
			}
		}
	}
}

// TestSettingsDocument keeps the settings table identical to Settings, so the documentation
// cannot drift from the flags, variables and YAML keys the code reads: the README is a front
// page and holds none; docs/settings.md holds it between settings:begin and settings:end.
func TestSettingsDocument(t *testing.T) {
	docs := documents(t)
	if strings.Contains(docs["../README.md"], "<!-- settings:begin -->") {
		t.Error("README.md holds the settings table; it belongs in docs/settings.md")
	}
	text, ok := docs["../docs/settings.md"]
	if !ok {
		t.Fatal("docs/settings.md is missing")
	}
	_, rest, ok := strings.Cut(text, "<!-- settings:begin -->\n")
	table, _, ok2 := strings.Cut(rest, "<!-- settings:end -->")
	if !ok || !ok2 {
		t.Fatal("docs/settings.md has no settings:begin/settings:end markers")
	}
	if want := SettingsMarkdown(); strings.TrimSpace(table) != strings.TrimSpace(want) {
		t.Errorf("docs/settings.md settings table is out of date; replace it with:\n%s", want)
	}
}

// readmeMaxLines keeps the README a front page; reference material goes under docs/.
const readmeMaxLines = 150

// TestReadmeCommands: the README is short, gives the two commands of a fresh machine and one
// quick start per role, and every command of the README and docs/ names what exists: make
// targets of the Makefile, the repository's paths, the runner's flags (in code blocks and
// inline code). The commands are also
// run elsewhere: the CI recipe by the container test, the Go quick start by the consumer test.
func TestReadmeCommands(t *testing.T) {
	docs := documents(t)
	readme := docs["../README.md"]
	if n := strings.Count(readme, "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move reference material to docs/", n, readmeMaxLines)
	}
	two := regexp.MustCompile("(?m)^\\| [^|]+ \\| `(make [a-z-]+)` \\|$").FindAllStringSubmatch(readme, -1)
	if len(two) != 2 || two[0][1] != "make conformance" || two[1][1] != "make test" {
		t.Errorf("README.md's two commands: %v, want make conformance and make test", two)
	}
	for _, role := range []string{"server implementer", "client developer", "CI"} {
		_, section, ok := strings.Cut(readme, "\n## Quick start: "+role+"\n")
		section, _, _ = strings.Cut(section, "\n## ")
		if !ok || len(doccheck.CodeBlocks(section)) == 0 {
			t.Errorf("README.md has no quick start with a command for the %s", role)
		}
	}
	// The quick starts log in as the default fixture's users, with their keys.
	for _, role := range []string{fixtures.RoleOwner, fixtures.RoleMember} {
		user, _ := fixtures.Default().UserByRole(role)
		if !strings.Contains(readme, user.Email) || !strings.Contains(readme, user.APIKey) {
			t.Errorf("README.md does not give the default fixture's %s as %s with its API key", role, user.Email)
		}
	}
	// The recipe of docs/images.md is the README's.
	recipe, err := doccheck.Snippet("../README.md", "ci-image")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := doccheck.Snippet("../docs/images.md", "ci-image"); err != nil || again != recipe {
		t.Errorf("docs/images.md's image recipe differs from the README's (%v):\n%s", err, again)
	}

	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string]bool{}
	for _, s := range Settings {
		flags[s.Flag] = s.Flag != ""
	}
	makeTarget := regexp.MustCompile(`\bmake ([a-z][a-z-]*)`)
	repoPath := regexp.MustCompile("(?:^|[\\s\"'(])(?:\\./)?((?:cmd|\\.ci|fixtures|fakeserver|harness|specs)/[A-Za-z0-9_./-]*[A-Za-z0-9_])")
	flag := regexp.MustCompile("-(" + regexp.QuoteMeta(FlagPrefix) + "[a-z-]+)")
	inline := regexp.MustCompile("`([^`\\n]+)`")
	for path, text := range docs {
		code := doccheck.CodeBlocks(text)
		for _, m := range inline.FindAllStringSubmatch(text, -1) {
			code = append(code, m[1])
		}
		for _, block := range code {
			for _, m := range makeTarget.FindAllStringSubmatch(block, -1) {
				if !regexp.MustCompile("(?m)^" + regexp.QuoteMeta(m[1]) + ":").Match(makefile) {
					t.Errorf("%s: make %s: no such Makefile target", path, m[1])
				}
			}
			for _, m := range repoPath.FindAllStringSubmatch(block, -1) {
				if _, err := os.Stat(filepath.Join("..", m[1])); err != nil {
					t.Errorf("%s: %s: no such file or directory in the repository", path, m[1])
				}
			}
			for _, m := range flag.FindAllStringSubmatch(block, -1) {
				if !flags[m[1]] {
					t.Errorf("%s: -%s: no such setting", path, m[1])
				}
			}
		}
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
