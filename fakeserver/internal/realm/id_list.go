package realm

import (
	"iter"
	"math"
	"slices"
)

// idBlockSize is the most ids one block of an idList holds.
const idBlockSize = 512

// idList is a list of message ids, ascending and without duplicates, kept in blocks of at most
// idBlockSize ids: adding or removing an id anywhere moves the ids of one block and the block
// headers, never the whole list. The realm's lists (every id, a channel's, a sender's, a user's
// unread) run to millions, and a deletion or a move of old messages would otherwise shift all
// of them, once per message.
//
// An idList is a value whose blocks are shared with its copies, as a slice's array is: what a
// method returns replaces the list it was called on.
type idList struct {
	blocks [][]int // none empty, ascending across blocks
	n      int
}

// Len is the number of ids.
func (l idList) Len() int { return l.n }

// First is the smallest id (0 for none), Last the largest.
func (l idList) First() int {
	if l.n == 0 {
		return 0
	}
	return l.blocks[0][0]
}

func (l idList) Last() int {
	if l.n == 0 {
		return 0
	}
	b := l.blocks[len(l.blocks)-1]
	return b[len(b)-1]
}

// find returns the block that holds id or would, and id's place in it.
func (l idList) find(id int) (block, i int, found bool) {
	block, _ = slices.BinarySearchFunc(l.blocks, id, func(b []int, id int) int { return b[len(b)-1] - id })
	if block == len(l.blocks) {
		return block, 0, false
	}
	i, found = slices.BinarySearch(l.blocks[block], id)
	return block, i, found
}

// with returns the list with id added. New messages have the highest id, so adding is mostly
// an append to the last block; a moved message is inserted in its block, which splits in two
// when full.
func (l idList) with(id int) idList {
	if l.n == 0 || l.Last() < id {
		if last := len(l.blocks) - 1; last >= 0 && len(l.blocks[last]) < idBlockSize {
			l.blocks[last] = append(l.blocks[last], id)
		} else {
			l.blocks = append(l.blocks, []int{id}) // grows by doubling to idBlockSize
		}
		l.n++
		return l
	}
	block, i, found := l.find(id)
	if found {
		return l
	}
	b := slices.Insert(l.blocks[block], i, id)
	if len(b) > idBlockSize {
		half := len(b) / 2
		upper := slices.Clone(b[half:])
		b = b[:half:half]
		l.blocks = slices.Insert(l.blocks, block+1, upper)
	}
	l.blocks[block] = b
	l.n++
	return l
}

// without returns the list with id removed; a block left empty goes.
func (l idList) without(id int) idList {
	block, i, found := l.find(id)
	if !found {
		return l
	}
	if b := slices.Delete(l.blocks[block], i, i+1); len(b) > 0 {
		l.blocks[block] = b
	} else {
		l.blocks = slices.Delete(l.blocks, block, block+1)
	}
	l.n--
	return l
}

// withAll returns the list with the given ids added.
func (l idList) withAll(ids []int) idList {
	for _, id := range ids {
		l = l.with(id)
	}
	return l
}

// withoutAll returns the list without the given ids (some perhaps not in it).
func (l idList) withoutAll(ids []int) idList {
	for _, id := range ids {
		l = l.without(id)
	}
	return l
}

// All yields the ids ascending.
func (l idList) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, b := range l.blocks {
			for _, id := range b {
				if !yield(id) {
					return
				}
			}
		}
	}
}

// From yields the ids from the first at or above id, ascending.
func (l idList) From(id int) iter.Seq[int] {
	return func(yield func(int) bool) {
		block, i, _ := l.find(id)
		for ; block < len(l.blocks); block, i = block+1, 0 {
			for _, id := range l.blocks[block][i:] {
				if !yield(id) {
					return
				}
			}
		}
	}
}

// Before yields the ids below id, descending.
func (l idList) Before(id int) iter.Seq[int] {
	return func(yield func(int) bool) {
		block, i, _ := l.find(id) // the ids before i in the block are below id
		if block == len(l.blocks) {
			if block == 0 {
				return
			}
			block--
			i = len(l.blocks[block])
		}
		for ; block >= 0; block-- {
			b := l.blocks[block][:i]
			for j := len(b) - 1; j >= 0; j-- {
				if !yield(b[j]) {
					return
				}
			}
			if block > 0 {
				i = len(l.blocks[block-1])
			}
		}
	}
}

// Backward yields every id, descending.
func (l idList) Backward() iter.Seq[int] { return l.Before(math.MaxInt) }

// ids returns the ids as a new slice, ascending.
func (l idList) ids() []int {
	out := make([]int, 0, l.n)
	for _, b := range l.blocks {
		out = append(out, b...)
	}
	return out
}
