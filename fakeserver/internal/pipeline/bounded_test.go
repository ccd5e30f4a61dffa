package pipeline

import (
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAll: readAll reads what io.ReadAll reads, whatever length the body declared.
func TestReadAll(t *testing.T) {
	body := strings.Repeat("x", 100)
	for _, length := range []int64{-1, 0, 50, 99, 100, 101, 1000, 1 << 20} {
		got, err := readAll(iotest.OneByteReader(strings.NewReader(body)), length)
		if err != nil || string(got) != body {
			t.Errorf("declared %d: %d bytes, %v", length, len(got), err)
		}
	}
}
