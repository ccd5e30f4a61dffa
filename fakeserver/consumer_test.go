package fakeserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/harness/doccheck"
)

// TestFromAnotherModule builds a client developer's module in a temporary directory, with a
// replace directive to this one, and runs its tests: the fake's Go API (Start, seeding with As,
// Client per role, SetClock, a fault, the journal's Verify, Flags, a fixture with messages and
// CheckFixture) works from outside, with only what the packages export; and the README's Go
// quick start, as a package of that module, passes as written.
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
	quickStart, err := doccheck.Snippet("../README.md", "go-test")
	if err != nil {
		t.Fatal(err)
	}
	quickStartTest := regexp.MustCompile(`func (Test\w+)\(t \*testing.T\)`).FindStringSubmatch(quickStart)
	if quickStartTest == nil {
		t.Fatalf("the README's Go quick start has no test function:\n%s", quickStart)
	}
	if err := os.Mkdir(filepath.Join(dir, "quickstart"), 0o755); err != nil {
		t.Fatal(err)
	}
	// go mod tidy resolves the consumer's requirements from the module cache.
	files := map[string][]byte{
		"client_test.go":                test,
		"quickstart/quickstart_test.go": []byte(quickStart),
		"go.mod":                        []byte("module example.test/consumer\n\ngo 1.26\n\nrequire github.com/chatconform/chatconform v0.0.0\n\nreplace github.com/chatconform/chatconform => " + root + "\n"),
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
	for _, test := range []string{"TestClientAgainstTheFake", "TestFixtureWithMessages", quickStartTest[1]} {
		if !strings.Contains(string(out), "--- PASS: "+test) {
			t.Fatalf("the consumer's %s did not run:\n%s", test, out)
		}
	}
}
