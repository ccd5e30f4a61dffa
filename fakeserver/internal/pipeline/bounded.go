package pipeline

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
)

// readBodyFirst reads the whole request body (at most params.MaxBodyBytes) before the request
// goes any further, so that no lock is ever held while a slow client trickles its body in: a
// reset would otherwise wait for that client, and every other request behind the reset.
func readBodyFirst(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		// A body of a declared length within the bound cannot pass it (net/http reads no more
		// than the length): only another is read through a bounding reader, one object less per
		// request with a body.
		bounded := r.Body
		if r.ContentLength < 0 || r.ContentLength > params.MaxBodyBytes {
			bounded = http.MaxBytesReader(w, r.Body, params.MaxBodyBytes)
		}
		body, err := readAll(bounded, r.ContentLength)
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				handler.WriteError(w, apierr.New(http.StatusRequestEntityTooLarge, "BAD_REQUEST", "Request body is larger than %d bytes", params.MaxBodyBytes))
				return
			}
			handler.WriteError(w, apierr.BadRequest("Could not read the request body"))
			return
		}
		r, st := handler.WithState(r)
		st.KeepBody(r, body)
		next.ServeHTTP(w, r)
	})
}

// readAll is io.ReadAll into a buffer of the body's declared length, rather than one of 512
// bytes grown as it fills: one allocation of the body's size. A length over 64 KB is not
// taken on trust (a client could declare megabytes and send nothing).
func readAll(r io.Reader, length int64) ([]byte, error) {
	if length < 0 || length > 64<<10 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, length+1) // room for the read that finds the end
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // more than declared: let append grow it
		}
	}
}

// Timeouts a server serving the fake should set (cmd/fakeserver does): a client gets this long
// to send its request and to take its reply, and an idle keep-alive connection is closed
// after IdleTimeout. A long poll of GET /events gets its poll timeout on top (longPollDeadline).
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 60 * time.Second
	WriteTimeout      = 60 * time.Second
	IdleTimeout       = 120 * time.Second
)

// longPollDeadline moves the connection's deadlines of a GET /events past its poll timeout,
// so that the server's read and write timeouts, shorter than the longest poll timeout, cut
// no long poll short. (Without a deadline, as under httptest, there is nothing to move.)
func (p *Pipeline) longPollDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/events" {
			deadline := time.Now().Add(time.Duration(p.config().EventPollTimeoutSeconds)*time.Second + WriteTimeout)
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(deadline)
			_ = rc.SetWriteDeadline(deadline)
		}
		next.ServeHTTP(w, r)
	})
}

// limitHeaders answers a request whose headers exceed the configured bound with 431 in the
// JSON envelope. (Headers beyond the http.Server's MaxHeaderBytes, 1 MB by default, never
// reach the fake: net/http answers those itself, in plain text.)
func (p *Pipeline) limitHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size, limit := 0, p.config().MaxHeaderBytes
		for name, values := range r.Header {
			for _, v := range values {
				size += len(name) + len(v) + 4 // ": " and CRLF
			}
		}
		if size > limit {
			handler.WriteError(w, apierr.New(http.StatusRequestHeaderFieldsTooLarge, "BAD_REQUEST", "Request header fields are larger than %d bytes", limit))
			return
		}
		next.ServeHTTP(w, r)
	})
}
