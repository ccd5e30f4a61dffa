package pipeline

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// SpecHeader is the request header in which the suite names the spec that sent a request.
const SpecHeader = "X-Chatconform-Spec"

// JournalEntry is one request the fake received.
type JournalEntry struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Query is the raw query string, credentials redacted.
	Query string `json:"query,omitempty"`
	// User is the username of the request's HTTP Basic credentials (the email it claimed).
	User string `json:"user,omitempty"`
	Spec string `json:"spec,omitempty"`
	// Params are the request's parameters, decoded from the query and a form body (one value
	// each, credentials redacted, each cut at the entry bound).
	Params map[string]string `json:"params,omitempty"`
	Status int               `json:"status"`
	// Response is the start of the answer's body, credentials redacted, cut at the entry bound.
	Response string `json:"response,omitempty"`
	// form is the start of a form body, decoded into Params only when the journal is read,
	// so that recording costs a request no parsing.
	form []byte
	// Time is the wall time and VirtualTime the fake's clock when the request arrived, in UNIX
	// milliseconds and seconds; DurationMicros is how long the answer took.
	Time           int64 `json:"time_ms"`
	VirtualTime    int64 `json:"virtual_time"`
	DurationMicros int64 `json:"duration_us"`
}

// JournalFilter selects journal entries; a zero field matches everything.
type JournalFilter struct {
	Method string // exact, case-insensitive
	// Path is a path.Match pattern ("/api/v1/messages/*") or an exact path.
	Path   string
	User   string    // the Basic username, case-insensitive
	Status int       // exact
	Since  time.Time // arrived at or after, wall time
}

func (f JournalFilter) matches(e JournalEntry) bool {
	if f.Method != "" && !strings.EqualFold(f.Method, e.Method) {
		return false
	}
	if f.Path != "" && f.Path != e.Path {
		if ok, err := path.Match(f.Path, e.Path); err != nil || !ok {
			return false
		}
	}
	return (f.User == "" || strings.EqualFold(f.User, e.User)) &&
		(f.Status == 0 || f.Status == e.Status) &&
		(f.Since.IsZero() || e.Time >= f.Since.UnixMilli())
}

// Matching returns the requests the fake received that match f, oldest first (copies).
func (j *Journal) Matching(f JournalFilter) []JournalEntry {
	var out []JournalEntry
	for _, e := range j.entries() {
		if f.matches(e) {
			out = append(out, e)
		}
	}
	return out
}

// Verify checks that exactly n requests matching f were received (WireMock's verify): a test
// asserts how a client used the API. The error lists the requests that matched and, when
// fewer than n did, the last ones that arrived at all, with their status and parameters.
func (j *Journal) Verify(f JournalFilter, n int) error {
	all := j.Matching(JournalFilter{})
	var got []JournalEntry
	for _, e := range all {
		if f.matches(e) {
			got = append(got, e)
		}
	}
	if len(got) == n {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fakeserver: %d requests match %s, want %d", len(got), f, n)
	listEntries(&b, "matched", got)
	if len(got) < n {
		listEntries(&b, "arrived", all)
	}
	return errors.New(b.String())
}

// verifyListed bounds how many requests a Verify error lists.
const verifyListed = 20

// listEntries writes the last entries to b, one a line, newest last.
func listEntries(b *strings.Builder, what string, entries []JournalEntry) {
	if len(entries) == 0 {
		fmt.Fprintf(b, "; none %s", what)
		return
	}
	fmt.Fprintf(b, "; %s (%d", what, len(entries))
	if len(entries) > verifyListed {
		fmt.Fprintf(b, ", the last %d", verifyListed)
		entries = entries[len(entries)-verifyListed:]
	}
	b.WriteString("):")
	for _, e := range entries {
		fmt.Fprintf(b, "\n\t%s", e)
	}
}

// String is the entry on one line: method, path and query, user, status and parameters.
func (e JournalEntry) String() string {
	line := e.Method + " " + e.Path
	if e.Query != "" {
		line += "?" + e.Query
	}
	if e.User != "" {
		line += " as " + e.User
	}
	line += fmt.Sprintf(" -> %d", e.Status)
	if len(e.Params) > 0 {
		names := slices.Sorted(maps.Keys(e.Params))
		pairs := make([]string, len(names))
		for i, k := range names {
			pairs[i] = k + "=" + strconv.Quote(cut(e.Params[k], 60))
		}
		line += " {" + strings.Join(pairs, ", ") + "}"
	}
	return line
}

// String names the filter's fields that select, as a person would write them.
func (f JournalFilter) String() string {
	var parts []string
	add := func(name, v string) {
		if v != "" {
			parts = append(parts, name+" "+v)
		}
	}
	add("method", f.Method)
	add("path", f.Path)
	add("user", f.User)
	if f.Status != 0 {
		add("status", strconv.Itoa(f.Status))
	}
	if !f.Since.IsZero() {
		add("since", f.Since.UTC().Format(time.RFC3339Nano))
	}
	if len(parts) == 0 {
		return "{any request}"
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Journal keeps the most recent requests, bounded by count, by total bytes and per entry
// (a path or spec name longer than the entry bound is cut), so that a long-running fake, or a
// client sending huge headers, cannot make it grow without end.
type Journal struct {
	clock    func() int64 // the virtual time, UNIX seconds
	mu       sync.Mutex
	limit    int // entries
	maxBytes int // total size of the entries' strings
	entryMax int // bytes kept of one entry's path and of its spec name
	// keep is entryMax, read by every request without taking mu.
	keep  atomic.Int64
	bytes int
	list  []JournalEntry
	// array is the whole array list is a part of (add).
	array []JournalEntry
}

// NewJournal returns a journal of at most limit entries, their virtual time read from clock.
func NewJournal(limit int, clock func() int64) *Journal {
	j := &Journal{clock: clock, limit: limit, maxBytes: config.DefaultJournalMaxBytes, entryMax: config.DefaultJournalEntryMaxBytes}
	j.keep.Store(int64(j.entryMax))
	return j
}

// SetBounds changes the byte bounds; entries already kept are trimmed to the total.
func (j *Journal) SetBounds(maxBytes, entryMax int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.maxBytes, j.entryMax = maxBytes, entryMax
	j.keep.Store(int64(entryMax))
	j.trim()
}

// trim drops the oldest entries until the journal is within its bounds. The caller holds j.mu.
func (j *Journal) trim() {
	n := 0
	for n < len(j.list) && (len(j.list)-n > j.limit || j.bytes > j.maxBytes) {
		j.bytes -= j.list[n].size()
		n++
	}
	clear(j.list[:n]) // the array keeps them until add reuses it
	j.list = j.list[n:]
}

// add appends e. Trimming leaves room at the front of the list's array: when the list reaches
// the array's end with that room at least half the array, the entries move down into it, so
// that a full journal records without allocating (appending grew a new array of every entry
// every few hundred requests).
func (j *Journal) add(e JournalEntry) {
	if len(j.list) == cap(j.list) {
		if front := cap(j.array) - cap(j.list); front > 0 && 2*front >= cap(j.array) {
			n := copy(j.array, j.list)
			clear(j.array[n:])
			j.list = j.array[:n]
		} else {
			j.array = make([]JournalEntry, 2*len(j.list)+16)
			j.list = j.array[:copy(j.array, j.list)]
		}
	}
	j.list = append(j.list, e)
}

func (e JournalEntry) size() int {
	return len(e.Method) + len(e.Path) + len(e.Query) + len(e.User) + len(e.Spec) + len(e.Response) + len(e.form)
}

// detach makes the entry hold copies of its strings, the user, the response's start and the
// form body, in two allocations of their exact sizes: a string cut from a request (a header's value, the
// request line, the body) would otherwise keep all of it alive, and the journal's byte bound
// would count only the part it shows.
func (e *JournalEntry) detach(user string, response, form []byte) {
	fields := [...]*string{&e.Method, &e.Path, &e.Query, &e.Spec}
	n := len(user) + len(response)
	for _, f := range fields {
		n += len(*f)
	}
	var b strings.Builder
	b.Grow(n)
	for _, f := range fields {
		b.WriteString(*f)
	}
	b.WriteString(user)
	b.Write(response)
	all := b.String()
	for _, f := range fields {
		*f, all = all[:len(*f)], all[len(*f):]
	}
	e.User, e.Response = all[:len(user)], all[len(user):]
	e.form = bytes.Clone(form)
}

// cut shortens s (a string or the bytes of one) to at most n bytes, on a rune boundary.
func cut[T ~string | ~[]byte](s T, n int) T {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Record is middleware that appends each API request (control requests excluded) after it
// has been answered.
func (j *Journal) Record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		max := int(j.keep.Load())
		sw := statusWriters.Get().(*statusWriter)
		*sw = statusWriter{ResponseWriter: w, status: http.StatusOK, keep: max, kept: sw.kept[:0]}
		defer sw.release()
		start, virtual := time.Now(), j.clock()
		// The request's state, which readBodyFirst fills with the body it read.
		r, st := handler.WithState(r)
		next.ServeHTTP(sw, r)
		if strings.HasPrefix(r.URL.Path, "/_fake/") {
			return
		}
		user := st.Claimed
		if !st.ClaimedRead {
			var userBuf [128]byte
			user = string(cut(basicUsername(r.Header.Get("Authorization"), userBuf[:0]), max))
		}
		e := JournalEntry{Method: cut(r.Method, max), Path: cut(r.URL.Path, max),
			Query: cut(redactQuery(r.URL.RawQuery), max),
			Spec:  cut(r.Header.Get(SpecHeader), max), Status: sw.status,
			Time: start.UnixMilli(), VirtualTime: virtual, DurationMicros: time.Since(start).Microseconds()}
		var form []byte
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			form = st.Body()[:len(cut(st.Body(), 4*max))]
		}
		e.detach(cut(user, max), cut(redactReply(sw.kept), max), form)
		j.mu.Lock()
		defer j.mu.Unlock()
		j.add(e)
		j.bytes += e.size()
		j.trim()
	})
}

// entries returns copies of the entries, their parameters decoded.
func (j *Journal) entries() []JournalEntry {
	j.mu.Lock()
	out := append([]JournalEntry{}, j.list...)
	max := j.entryMax
	j.mu.Unlock()
	for i := range out {
		out[i].Params = journalParams(out[i].Query, out[i].form, max)
		out[i].form = nil
	}
	return out
}

func (j *Journal) Clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list, j.array, j.bytes = nil, nil, 0
}

// basicUsername appends to buf the username of HTTP Basic credentials in an Authorization
// header, as Request.BasicAuth reads it (nothing when it finds none), without allocating for
// a username that fits in buf.
func basicUsername(header string, buf []byte) []byte {
	const prefix = "Basic "
	if len(header) < len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return nil
	}
	decoded, err := base64.StdEncoding.AppendDecode(buf, []byte(header[len(prefix):]))
	if err != nil {
		return nil
	}
	user, _, found := bytes.Cut(decoded, []byte(":"))
	if !found {
		return nil
	}
	return user
}

// statusWriters are reused from one request to the next, with the bytes they kept: the
// journal copies what it keeps of them.
var statusWriters = sync.Pool{New: func() any { return new(statusWriter) }}

// release returns the writer to statusWriters, unless it kept an unusually large reply.
func (w *statusWriter) release() {
	w.ResponseWriter = nil
	if cap(w.kept) <= 64<<10 {
		statusWriters.Put(w)
	}
}

// statusWriter notes the status and keeps the first keep bytes of the body written.
type statusWriter struct {
	http.ResponseWriter
	status int
	keep   int
	kept   []byte
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if room := w.keep - len(w.kept); room > 0 {
		if w.kept == nil {
			w.kept = make([]byte, 0, min(w.keep, max(len(p), 512)))
		}
		w.kept = append(w.kept, p[:min(room, len(p))]...)
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection (GET /events sets its own write
// deadline).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}
