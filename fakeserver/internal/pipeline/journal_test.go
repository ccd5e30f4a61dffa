package pipeline

import (
	"strconv"
	"testing"
)

// TestJournalAddReusesItsArray: a full journal keeps its newest entries, oldest first, and
// records without growing its array once trimming has made room at the front.
func TestJournalAddReusesItsArray(t *testing.T) {
	j := NewJournal(100, func() int64 { return 0 })
	record := func(i int) {
		e := JournalEntry{Method: "GET", Path: "/" + strconv.Itoa(i)}
		j.add(e)
		j.bytes += e.size()
		j.trim()
	}
	for i := range 1000 {
		record(i)
	}
	array := cap(j.array)
	for i := 1000; i < 5000; i++ {
		record(i)
		if cap(j.array) != array {
			t.Fatalf("entry %d: the array grew from %d to %d entries", i, array, cap(j.array))
		}
	}
	got := j.entries()
	if len(got) != 100 || got[0].Path != "/4900" || got[99].Path != "/4999" {
		t.Fatalf("%d entries, from %s to %s; want the 100 newest", len(got), got[0].Path, got[len(got)-1].Path)
	}
	for i, e := range got {
		if want := "/" + strconv.Itoa(4900+i); e.Path != want {
			t.Fatalf("entry %d is %s, want %s", i, e.Path, want)
		}
	}
	for _, e := range j.array[:cap(j.array)-cap(j.list)] {
		if e.Path != "" {
			t.Fatalf("a trimmed entry (%s) is still held", e.Path)
		}
	}
}
