//go:build mutants

package mutation

import (
	"os"
	"path/filepath"
	"testing"
)

// In a mutants build only the named point is on, and reaching it leaves the hits file.
func TestOnlyTheNamedPointIsOn(t *testing.T) {
	active, hits = "recipient-id-per-message", filepath.Join(t.TempDir(), "reached")
	if On("sender-realm-per-sender") || On("") {
		t.Fatal("a point other than the named one is on")
	}
	if _, err := os.Stat(hits); err == nil {
		t.Fatal("the hits file exists before the point was reached")
	}
	if !On("recipient-id-per-message") {
		t.Fatal("the named point is off")
	}
	if data, err := os.ReadFile(hits); err != nil || string(data) != "recipient-id-per-message\n" {
		t.Fatalf("hits file: %q, %v", data, err)
	}
}
