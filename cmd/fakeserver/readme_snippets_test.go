package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chatconform/chatconform/harness/doccheck"
	"github.com/chatconform/chatconform/internal/testctx"
)

// snippet returns a document's snippet of that name (doccheck.Snippet), failing the test
// without it.
func snippet(t *testing.T, document, name string) string {
	t.Helper()
	code, err := doccheck.Snippet(document, name)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// snippetDocument holds the JavaScript and Python snippets for client developers.
const snippetDocument = "../../docs/fake.md"

// TestReadmeSnippets runs the documented JavaScript and Python snippets against the fake binary
// and compares what they print with what their comments promise.
func TestReadmeSnippets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fake and runs node and python")
	}
	t.Parallel()
	ctx := testctx.Context(t)
	url, stop := startFake(ctx, t)
	defer func() { _, _ = stop() }()
	cases := []struct {
		name, tool string
		want       string
		run        func(code string) *exec.Cmd
	}{
		{"js", "node", "error success 2 1767229200\n", func(code string) *exec.Cmd {
			installZulipJS(ctx, t)
			// Beside the pinned zulip-js, so that the import resolves to it.
			file := filepath.Join(zulipJSDir, "readme-snippet.mjs")
			if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Remove(file) })
			cmd := exec.CommandContext(ctx, "node", "readme-snippet.mjs")
			cmd.Dir = zulipJSDir
			return cmd
		}},
		{"python", "python3", "first: 503\nthen: 200\njournal: 2 1767229200\n", func(code string) *exec.Cmd {
			return exec.CommandContext(ctx, "python3", "-c", code)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("needs %s to run the %s snippet of %s", tc.tool, tc.name, snippetDocument)
			}
			cmd := tc.run(snippet(t, snippetDocument, tc.name))
			cmd.Env = append(os.Environ(), "FAKE_URL="+url)
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != tc.want {
				t.Errorf("the %s snippet of %s printed %q (%v), want %q", tc.name, snippetDocument, out, err, tc.want)
			}
		})
	}
}
