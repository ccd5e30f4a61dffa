package fakeserver

import (
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"
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

// journal keeps the most recent requests, bounded by count, by total bytes and per entry
// (a path or spec name longer than the entry bound is cut), so that a long-running fake, or a
// client sending huge headers, cannot make it grow without end.
type journal struct {
	mu       sync.Mutex
	limit    int // entries
	maxBytes int // total size of the entries' strings
	entryMax int // bytes kept of one entry's path and of its spec name
	bytes    int
	list     []JournalEntry
}

func newJournal(limit int) *journal {
	return &journal{limit: limit, maxBytes: DefaultJournalMaxBytes, entryMax: DefaultJournalEntryMaxBytes}
}

// setBounds changes the byte bounds; entries already kept are trimmed to the total.
func (j *journal) setBounds(maxBytes, entryMax int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.maxBytes, j.entryMax = maxBytes, entryMax
	j.trim()
}

// trim drops the oldest entries until the journal is within its bounds. The caller holds j.mu.
func (j *journal) trim() {
	n := 0
	for n < len(j.list) && (len(j.list)-n > j.limit || j.bytes > j.maxBytes) {
		j.bytes -= j.list[n].size()
		n++
	}
	j.list = j.list[n:]
}

func (e JournalEntry) size() int { return len(e.Method) + len(e.Path) + len(e.Spec) }

// cut shortens s to at most n bytes, on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

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
		e := JournalEntry{Method: cut(r.Method, j.entryMax), Path: cut(r.URL.Path, j.entryMax), Spec: cut(r.Header.Get(SpecHeader), j.entryMax), Status: sw.status}
		j.list = append(j.list, e)
		j.bytes += e.size()
		j.trim()
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
	j.list, j.bytes = nil, 0
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
