package realm

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// An idList must say what a sorted slice of the same ids says, through adds and removals
// anywhere (blocks filling, splitting and emptying), single and in batches, and every way of
// reading it.
func TestIDListMatchesASortedSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var l idList
	var want []int
	add := func(id int) {
		if i, found := slices.BinarySearch(want, id); !found {
			want = slices.Insert(want, i, id)
		}
	}
	remove := func(id int) {
		if i, found := slices.BinarySearch(want, id); found {
			want = slices.Delete(want, i, i+1)
		}
	}
	const span = 8 * idBlockSize
	for step := range 20_000 {
		var batch []int
		for range rng.IntN(3) + 1 {
			batch = append(batch, rng.IntN(span)+1)
		}
		switch op := rng.IntN(10); {
		case step < 4000 && op < 7, op < 4: // grow first, then churn
			l = l.withAll(batch)
			for _, id := range batch {
				add(id)
			}
		case op < 6:
			l = l.withoutAll(batch)
			for _, id := range batch {
				remove(id)
			}
		case op < 8 && len(want) > 0:
			l = l.with(want[len(want)-1] + 1) // an append, as a new message is
			add(want[len(want)-1] + 1)
		default:
			l = l.without(batch[0])
			remove(batch[0])
		}
		if step%97 != 0 {
			continue
		}
		got := l.ids()
		if !slices.Equal(got, want) || l.Len() != len(want) || !slices.Equal(slices.Collect(l.All()), want) {
			t.Fatalf("step %d: %d ids %v…, want %d %v…", step, l.Len(), got[:min(8, len(got))], len(want), want[:min(8, len(want))])
		}
		if len(want) > 0 && (l.First() != want[0] || l.Last() != want[len(want)-1]) {
			t.Fatalf("step %d: first %d last %d, want %d %d", step, l.First(), l.Last(), want[0], want[len(want)-1])
		}
		for _, b := range l.blocks {
			if len(b) == 0 || len(b) > idBlockSize {
				t.Fatalf("step %d: a block of %d ids", step, len(b))
			}
		}
		at := rng.IntN(span + 2)
		split, _ := slices.BinarySearch(want, at)
		below := slices.Clone(want[:split])
		slices.Reverse(below)
		if from := slices.Collect(l.From(at)); !slices.Equal(from, want[split:]) {
			t.Fatalf("step %d: From(%d) %v, want %v", step, at, from, want[split:])
		}
		if before := slices.Collect(l.Before(at)); !slices.Equal(before, below) {
			t.Fatalf("step %d: Before(%d) gives %d ids, want %d", step, at, len(before), len(below))
		}
		backward := slices.Collect(l.Backward())
		slices.Reverse(backward)
		if !slices.Equal(backward, want) {
			t.Fatalf("step %d: Backward differs", step)
		}
	}
}
