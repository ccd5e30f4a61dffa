package harness

import (
	"regexp"
	"strings"
	"sync"
	"testing"
)

var uniqueFormat = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

func TestUniqueNameFormat(t *testing.T) {
	tests := []struct {
		prefix, wantPrefix string
	}{
		{"channel", "channel-"},
		{"Private Shared", "private-shared-"},
		{"topic/with ✔ symbols!", "topic-with-symbols-"},
		{"", "x-"},
		{"---", "x-"},
		{strings.Repeat("long", 40), "longlong"},
	}
	for _, tt := range tests {
		name := UniqueName(tt.prefix)
		if len(name) >= 60 {
			t.Errorf("UniqueName(%q) = %q: %d characters, want < 60", tt.prefix, name, len(name))
		}
		if !uniqueFormat.MatchString(name) {
			t.Errorf("UniqueName(%q) = %q: not [a-z0-9-]", tt.prefix, name)
		}
		if !strings.HasPrefix(name, tt.wantPrefix) {
			t.Errorf("UniqueName(%q) = %q, want prefix %q", tt.prefix, name, tt.wantPrefix)
		}
		if !strings.Contains(name, "-"+fallbackRunID+"-1-") {
			t.Errorf("UniqueName(%q) = %q lacks run id %s and process 1", tt.prefix, name, fallbackRunID)
		}
	}
}

func TestUniqueNameUsesCurrentRun(t *testing.T) {
	SetCurrent(&Target{URL: "http://x", RunID: "abc123"})
	t.Cleanup(func() { SetCurrent(nil) })
	if name := UniqueName("c"); !strings.HasPrefix(name, "c-abc123-1-") {
		t.Errorf("UniqueName = %q, want the current target's run id", name)
	}
}

func TestUniqueNameIsUnique(t *testing.T) {
	const workers, each = 8, 500
	var (
		mu   sync.Mutex
		seen = map[string]bool{}
		wg   sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				n := UniqueName("same")
				mu.Lock()
				if seen[n] {
					t.Errorf("duplicate %q", n)
				}
				seen[n] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != workers*each {
		t.Errorf("%d names, want %d", len(seen), workers*each)
	}
}

func TestRunIDs(t *testing.T) {
	a, b := newRunID(), newRunID()
	if a == b || !regexp.MustCompile(`^[a-z0-9]{6}$`).MatchString(a) {
		t.Errorf("run ids %q, %q", a, b)
	}
}
