package httpx

import (
	"bytes"
	"net/http"
	"sync"
)

// BufferedReply collects a reply in memory, so that it can be written to the client after
// the locks the handler held are released: a client that does not read its reply then delays
// nobody but itself.
type BufferedReply struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *BufferedReply) Header() http.Header { return b.header }

func (b *BufferedReply) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *BufferedReply) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// SendTo writes the collected reply to w.
func (b *BufferedReply) SendTo(w http.ResponseWriter) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	w.WriteHeader(b.status)
	_, _ = w.Write(b.body.Bytes())
}

// NewBufferedReply collects a reply whose header is header (the client's, so that middlewares
// before the buffer see what handlers set). Release gives it back once it has been sent.
func NewBufferedReply(header http.Header) *BufferedReply {
	b := replies.Get().(*BufferedReply)
	b.header = header
	return b
}

// replies are reused from one request to the next, with their buffers: a request then
// allocates nothing to hold its reply.
var replies = sync.Pool{New: func() any { return new(BufferedReply) }}

// maxPooledReply bounds the buffer a reply keeps for the next: a rare large reply's is
// left to the collector.
const maxPooledReply = 64 << 10

// Release makes the reply reusable; it must not be used after.
func (b *BufferedReply) Release() {
	if b.body.Cap() > maxPooledReply {
		return
	}
	b.header, b.status = nil, 0
	b.body.Reset()
	replies.Put(b)
}
