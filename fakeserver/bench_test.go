package fakeserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
)

// The fake's cost per request, measured in-process beside a bare net/http handler that answers
// the same bytes, in the same run and alternately, so that the ratio holds on a shared, noisy
// machine (`make bench`). The metrics:
//   x-bare        the fake's throughput as a fraction of the bare handler's (target ≥ 0.6 for O(1) routes)
//   fake-ns/op    one request to the fake; bare-ns/op one request to the bare handler
//   fake-allocs   allocations of one request to the fake beyond the bare handler's (target ≤ 60 for POST)
//   heap-B/msg    heap held per stored 100-byte message (target ≤ 600 at 10^6)

// exchange is one request of a benchmark.
type exchange struct {
	method, path string
	form         url.Values
}

func (e exchange) do(h http.Handler, auth string) *httptest.ResponseRecorder {
	var body io.Reader
	if e.form != nil {
		body = strings.NewReader(e.form.Encode())
	}
	req := httptest.NewRequest(e.method, e.path, body)
	if e.form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Authorization", auth)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// bare answers a fixed reply, as cheaply as net/http allows: the reference the fake is held to.
func bare(reply []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	})
}

// sideBySide times request i to the fake and the same request to a bare handler answering the
// fake's first reply, alternately, and reports both and their ratio.
func sideBySide(b *testing.B, srv http.Handler, next func(i int) exchange) {
	b.Helper()
	auth := basicAuth(b, "owner")
	first := next(0).do(srv, auth)
	if first.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", next(0).path, first.Code, first.Body)
	}
	ref := bare(first.Body.Bytes())
	var fake, plain time.Duration
	i := 1
	for b.Loop() {
		e := next(i)
		t0 := time.Now()
		if rec := e.do(srv, auth); rec.Code != http.StatusOK {
			b.Fatalf("%s %s: %d %s", e.method, e.path, rec.Code, rec.Body)
		}
		t1 := time.Now()
		e.do(ref, auth)
		plain += time.Since(t1)
		fake += t1.Sub(t0)
		i++
	}
	n := float64(i - 1)
	b.ReportMetric(float64(fake.Nanoseconds())/n, "fake-ns/op")
	b.ReportMetric(float64(plain.Nanoseconds())/n, "bare-ns/op")
	b.ReportMetric(float64(plain)/float64(fake), "x-bare")
	allocs := testing.AllocsPerRun(50, func() { next(i).do(srv, auth); i++ }) -
		testing.AllocsPerRun(50, func() { next(i).do(ref, auth) })
	b.ReportMetric(allocs, "fake-allocs")
}

// BenchmarkRoutes measures reading, sending and editing a message, the own user and topic
// listing, each on a realm of 1,000 messages in 50 topics.
func BenchmarkRoutes(b *testing.B) {
	send := url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"bench"}, "content": {strings.Repeat("x", 100)}}
	cases := []struct {
		name string
		next func(i int) exchange
	}{
		{"read", func(i int) exchange { return exchange{"GET", fmt.Sprintf("/api/v1/messages/%d", i%1000+1), nil} }},
		{"write", func(int) exchange { return exchange{"POST", "/api/v1/messages", send} }},
		{"edit", func(i int) exchange {
			return exchange{"PATCH", fmt.Sprintf("/api/v1/messages/%d", i%1000+1), url.Values{"content": {fmt.Sprint("edit ", i)}}}
		}},
		{"own-user", func(int) exchange { return exchange{"GET", "/api/v1/users/me", nil} }},
		{"topics", func(int) exchange { return exchange{"GET", "/api/v1/users/me/1/topics", nil} }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			srv := fakeserver.New()
			srv.SeedChannelMessages(1, "general", 1000, 50, 100)
			sideBySide(b, srv, c.next)
		})
	}
}

// seeded holds one realm per size, built once per benchmark binary: a million messages take
// seconds to store. heapPerMessage is measured while building it.
var seeded = struct {
	sync.Mutex
	realms map[int]*fakeserver.Server
	heap   map[int]float64
}{realms: map[int]*fakeserver.Server{}, heap: map[int]float64{}}

func realmOf(n int) (*fakeserver.Server, float64) {
	seeded.Lock()
	defer seeded.Unlock()
	if srv, ok := seeded.realms[n]; ok {
		return srv, seeded.heap[n]
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	srv := fakeserver.New()
	srv.SeedChannelMessages(1, "general", n, 100, 100)
	runtime.GC()
	runtime.ReadMemStats(&after)
	seeded.realms[n] = srv
	seeded.heap[n] = float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
	return srv, seeded.heap[n]
}

// BenchmarkScale measures topic listing and 20-message narrowed fetches (by channel and topic,
// by channel, by sender) as the realm grows from 10^3 to 10^6 messages (100 topics): their cost
// should follow what they return, not the realm.
func BenchmarkScale(b *testing.B) {
	fetch := func(narrow string) string {
		return "/api/v1/messages?anchor=newest&num_before=20&num_after=0&narrow=" + url.QueryEscape(narrow)
	}
	queries := map[string]string{
		"topics":         "/api/v1/users/me/1/topics",
		"narrow":         fetch(`[{"operator":"channel","operand":"general"},{"operator":"topic","operand":"topic 7"}]`),
		"narrow-channel": fetch(`[{"operator":"channel","operand":"general"}]`),
		"narrow-sender":  fetch(`[{"operator":"sender","operand":"1"}]`),
	}
	for _, name := range []string{"topics", "narrow", "narrow-channel", "narrow-sender"} {
		for _, n := range []int{1e3, 1e4, 1e5, 1e6} {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				srv, heap := realmOf(n)
				sideBySide(b, srv, func(int) exchange { return exchange{"GET", queries[name], nil} })
				b.ReportMetric(heap, "heap-B/msg")
			})
		}
	}
}
