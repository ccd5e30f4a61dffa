package fakeserver

import (
	"net/http"
	"strings"
	"sync"
)

// SpecHeader is the request header in which the suite names the spec that sent a request.
const SpecHeader = "X-Chatconform-Spec"

// JournalEntry is one request the fake received.
type JournalEntry struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Spec   string `json:"spec,omitempty"`
	Status int    `json:"status"`
}

// journal keeps the most recent requests, bounded so a long-running fake stays small.
type journal struct {
	mu    sync.Mutex
	limit int
	list  []JournalEntry
}

func newJournal(limit int) *journal { return &journal{limit: limit} }

// record is middleware that appends each API request (control requests excluded) after it
// has been answered.
func (j *journal) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		if strings.HasPrefix(r.URL.Path, "/_fake/") {
			return
		}
		j.mu.Lock()
		defer j.mu.Unlock()
		if len(j.list) == j.limit {
			j.list = j.list[1:]
		}
		j.list = append(j.list, JournalEntry{Method: r.Method, Path: r.URL.Path, Spec: r.Header.Get(SpecHeader), Status: sw.status})
	})
}

func (j *journal) entries() []JournalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]JournalEntry{}, j.list...)
}

func (j *journal) clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list = nil
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

// Unwrap lets http.ResponseController reach the connection (GET /events sets its own write
// deadline).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}
