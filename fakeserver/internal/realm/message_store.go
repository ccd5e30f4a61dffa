package realm

import "iter"

// messageChunkSize is how many messages one chunk of a messageStore holds.
const messageChunkSize = 256

// messageStore holds the realm's messages by id, in chunks of consecutive ids: message ids are
// given out in order from 1 (nextID), so a message's place is its id, and the store needs no
// map. The messages are values in their chunk, not objects of their own: the collector marks
// one chunk per 256 messages, where a map of pointers had it find and mark every message, and
// scan the map besides. A *Message of the store stays valid while the realm lives (chunks are
// never moved); one of a deleted message keeps its last values, as it did before.
type messageStore struct {
	chunks []*messageChunk
	n      int // messages stored and not deleted
}

type messageChunk struct {
	msgs    [messageChunkSize]Message
	present [messageChunkSize / 64]uint64 // a bit per message: stored and not deleted
}

// place is where id's message goes: its chunk and its index in the chunk (ok false for an id
// no message can have).
func place(id int) (chunk, i int, ok bool) {
	if id <= 0 {
		return 0, 0, false
	}
	return (id - 1) / messageChunkSize, (id - 1) % messageChunkSize, true
}

// get is the message of id, nil for none.
func (st *messageStore) get(id int) *Message {
	c, i, ok := place(id)
	if !ok || c >= len(st.chunks) {
		return nil
	}
	ch := st.chunks[c]
	if ch.present[i/64]&(1<<(i%64)) == 0 {
		return nil
	}
	return &ch.msgs[i]
}

// put stores a copy of m under its id and returns the stored message, which the caller goes on
// with (changes to m itself are not stored).
func (st *messageStore) put(m *Message) *Message {
	c, i, ok := place(m.ID)
	if !ok {
		panic("realm: a message without an id stored")
	}
	for len(st.chunks) <= c {
		st.chunks = append(st.chunks, new(messageChunk))
	}
	ch := st.chunks[c]
	if ch.present[i/64]&(1<<(i%64)) == 0 {
		st.n++
	}
	ch.present[i/64] |= 1 << (i % 64)
	ch.msgs[i] = *m
	return &ch.msgs[i]
}

// del forgets the message of id. Its values stay where a *Message of it points, as a deleted
// message's object stayed for whoever held it.
func (st *messageStore) del(id int) {
	c, i, ok := place(id)
	if !ok || c >= len(st.chunks) {
		return
	}
	ch := st.chunks[c]
	if ch.present[i/64]&(1<<(i%64)) != 0 {
		ch.present[i/64] &^= 1 << (i % 64)
		st.n--
	}
}

// len is the number of messages stored.
func (st *messageStore) len() int { return st.n }

// all yields the stored messages by ascending id.
func (st *messageStore) all() iter.Seq2[int, *Message] {
	return func(yield func(int, *Message) bool) {
		for c, ch := range st.chunks {
			for i := range ch.msgs {
				if ch.present[i/64]&(1<<(i%64)) != 0 && !yield(c*messageChunkSize+i+1, &ch.msgs[i]) {
					return
				}
			}
		}
	}
}
