package fakeserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFromAnotherModule builds a client developer's module in a temporary directory, with a
// replace directive to this one, and runs its tests: the fake's Go API (Start, seeding with As,
// Client per role, SetClock, a fault, the journal's Verify, Flags, a fixture with messages and
// CheckFixture) works from outside, with only what the packages export.
func TestFromAnotherModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another module's test")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	test, err := os.ReadFile(filepath.Join("testdata", "consumer", "client_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// go mod tidy resolves the consumer's requirements from the module cache.
	files := map[string][]byte{
		"client_test.go": test,
		"go.mod":         []byte("module example.test/consumer\n\ngo 1.26\n\nrequire github.com/chatconform/chatconform v0.0.0\n\nreplace github.com/chatconform/chatconform => " + root + "\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out []byte
	for _, args := range [][]string{{"mod", "tidy"}, {"test", "-count=1", "-v", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err = cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v in the consumer module: %v\n%s", args, err, out)
		}
	}
	for _, test := range []string{"TestClientAgainstTheFake", "TestFixtureWithMessages"} {
		if !strings.Contains(string(out), "--- PASS: "+test) {
			t.Fatalf("the consumer's %s did not run:\n%s", test, out)
		}
	}
}
