package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// snippet returns the code block of the README between <!-- snippet:<name>:begin --> and
// <!-- snippet:<name>:end -->, without its fence.
func snippet(t *testing.T, name string) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- snippet:" + name + ":begin -->\\n```[a-z]*\\n(.*?)```\\n<!-- snippet:" + name + ":end -->").FindSubmatch(readme)
	if m == nil {
		t.Fatalf("README.md has no %s snippet", name)
	}
	return string(m[1])
}

// TestReadmeSnippets runs the README's JavaScript and Python snippets against the fake binary
// and compares what they print with what their comments promise.
func TestReadmeSnippets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fake and runs node and python")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	url, stop := startFake(ctx, t)
	defer stop()
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
				t.Skipf("needs %s to run the README's %s snippet", tc.tool, tc.name)
			}
			cmd := tc.run(snippet(t, tc.name))
			cmd.Env = append(os.Environ(), "FAKE_URL="+url)
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != tc.want {
				t.Errorf("the README's %s snippet printed %q (%v), want %q", tc.name, out, err, tc.want)
			}
		})
	}
}
