package fakeserver_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/serve"
	"github.com/chatconform/chatconform/fixtures"
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
	auth := ownerAuth()
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

// narrow20 is make load's narrowed fetch: the newest 20 messages of a channel's topic.
var narrow20 = "/api/v1/messages?anchor=newest&num_before=20&num_after=0&narrow=" +
	url.QueryEscape(`[["channel","general"],["topic","topic 7"]]`)

// BenchmarkRoutes measures reading, sending and editing a message, the own user, topic
// listing and a 20-message narrowed fetch, each on a realm of 1,000 messages in 50 topics.
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
		{"narrow-20", func(int) exchange { return exchange{"GET", narrow20, nil} }},
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

// BenchmarkScaleWrites measures the writes that touch many messages, each on a topic of 100
// messages, as the realm grows from 10^3 to 10^6 messages: deleting the topic, moving it to
// another topic and to another channel, marking it read and unread, and deleting one message.
// The messages written are the realm's oldest, behind all the others in every list of the
// index. Their cost should follow the messages they change, not the realm (`make bench`).
func BenchmarkScaleWrites(b *testing.B) {
	const topicSize = 100
	type op struct {
		name string
		// setup prepares the realm once and returns what iteration i needs beforehand (not
		// timed) and its request.
		setup func(srv *fakeserver.Server, owner string) (before func(i int), next func(i int) exchange)
	}
	must := func(srv *fakeserver.Server, owner string, e exchange) []byte {
		rec := e.do(srv, owner)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s %s: %d %s", e.method, e.path, rec.Code, rec.Body)
		}
		return rec.Body.Bytes()
	}
	withForm := func(form url.Values, kv ...string) url.Values {
		out := url.Values{"send_notification_to_old_thread": {"false"}, "send_notification_to_new_thread": {"false"}}
		for k, v := range form {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	// gather moves the channel's k oldest messages into one topic, and sends k new ones to
	// keep the realm's size: the topic is then the realm's oldest messages.
	gather := func(srv *fakeserver.Server, owner, topic string, k int) int {
		narrow := url.QueryEscape(`[{"operator":"channel","operand":"general"}]`)
		var got struct {
			Messages []struct{ ID int } `json:"messages"`
		}
		body := must(srv, owner, exchange{"GET", fmt.Sprintf("/api/v1/messages?anchor=oldest&num_before=0&num_after=%d&narrow=%s", k, narrow), nil})
		if err := json.Unmarshal(body, &got); err != nil || len(got.Messages) != k {
			b.Fatalf("the %d oldest messages: %v, %d found", k, err, len(got.Messages))
		}
		for _, m := range got.Messages {
			must(srv, owner, exchange{"PATCH", fmt.Sprintf("/api/v1/messages/%d", m.ID), withForm(nil, "topic", topic, "propagate_mode", "change_one")})
		}
		srv.SeedTopic(1, "general", "refill", k, 100)
		return got.Messages[0].ID
	}
	move := func(first int, key string, values [2]string) func(int) exchange {
		return func(i int) exchange {
			return exchange{"PATCH", fmt.Sprintf("/api/v1/messages/%d", first), withForm(nil, key, values[(i+1)%2], "propagate_mode", "change_all")}
		}
	}
	ops := []op{
		{"delete-topic", func(srv *fakeserver.Server, owner string) (func(int), func(int) exchange) {
			return func(int) { gather(srv, owner, "doomed", topicSize) }, func(int) exchange {
				return exchange{"POST", "/api/v1/streams/1/delete_topic", url.Values{"topic_name": {"doomed"}}}
			}
		}},
		{"delete-message", func(srv *fakeserver.Server, owner string) (func(int), func(int) exchange) {
			var id int
			return func(int) { id = gather(srv, owner, "single", 1) }, func(int) exchange {
				return exchange{"DELETE", fmt.Sprintf("/api/v1/messages/%d", id), nil}
			}
		}},
		{"move-topic", func(srv *fakeserver.Server, owner string) (func(int), func(int) exchange) {
			first := gather(srv, owner, "moving 0", topicSize)
			return func(int) {}, move(first, "topic", [2]string{"moving 0", "moving 1"})
		}},
		{"move-channel", func(srv *fakeserver.Server, owner string) (func(int), func(int) exchange) {
			name := fmt.Sprint("elsewhere ", time.Now().UnixNano())
			must(srv, owner, exchange{"POST", "/api/v1/users/me/subscriptions", url.Values{"subscriptions": {fmt.Sprintf(`[{"name":%q}]`, name)}}})
			var got struct {
				StreamID int `json:"stream_id"`
			}
			if err := json.Unmarshal(must(srv, owner, exchange{"GET", "/api/v1/get_stream_id?stream=" + url.QueryEscape(name), nil}), &got); err != nil {
				b.Fatal(err)
			}
			first := gather(srv, owner, "travelling", topicSize)
			return func(int) {}, move(first, "stream_id", [2]string{"1", fmt.Sprint(got.StreamID)})
		}},
		{"mark-topic", func(srv *fakeserver.Server, owner string) (func(int), func(int) exchange) {
			gather(srv, owner, "marked", topicSize)
			narrow := `[{"operator":"channel","operand":"general"},{"operator":"topic","operand":"marked"}]`
			return func(int) {}, func(i int) exchange {
				return exchange{"POST", "/api/v1/messages/flags/narrow", url.Values{"anchor": {"oldest"}, "num_before": {"0"},
					"num_after": {fmt.Sprint(topicSize)}, "narrow": {narrow}, "flag": {"read"}, "op": {[2]string{"add", "remove"}[i%2]}}}
			}
		}},
	}
	for _, o := range ops {
		for _, n := range []int{1e3, 1e4, 1e5, 1e6} {
			b.Run(fmt.Sprintf("%s/n=%d", o.name, n), func(b *testing.B) {
				srv, _ := realmOf(n)
				owner := ownerAuth()
				before, next := o.setup(srv, owner)
				i := 0
				for b.Loop() { // ns/op counts the write alone
					b.StopTimer()
					before(i)
					e := next(i)
					b.StartTimer()
					if rec := e.do(srv, owner); rec.Code != http.StatusOK {
						b.Fatalf("%s %s: %d %s", e.method, e.path, rec.Code, rec.Body)
					}
					i++
				}
			})
		}
	}
}

// BenchmarkNewTestServer measures starting and closing one fake on loopback (fake) beside
// starting and closing a bare httptest.Server (httptest), and the fake's own part, New and
// Close without a listener (new): what it costs to give every test its own fake (target
// ≤ 100 µs and ≤ 50 KB per instance; `make bench`). side-by-side starts the fake and the bare
// server alternately, so that their times compare on a shared, noisy machine, and adds the
// process's CPU time per start (cpu-ns/op: wall time on a busy machine counts waits for a core).
func BenchmarkNewTestServer(b *testing.B) {
	h := bare([]byte(`{"result":"success"}`))
	fake := func() { fakeserver.NewTestServer().Close() }
	plain := func() { httptest.NewServer(h).Close() }
	fake() // the first fake builds what all share
	for _, c := range []struct {
		name  string
		start func()
	}{
		{"fake", fake},
		{"httptest", plain},
		{"new", func() { fakeserver.New().Close() }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0, ok := processCPU()
			n := 0
			for b.Loop() {
				c.start()
				n++
			}
			if cpu1, _ := processCPU(); ok {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
			}
		})
	}
	b.Run("side-by-side", func(b *testing.B) {
		var fakeTime, plainTime time.Duration
		n := 0
		for b.Loop() {
			t0 := time.Now()
			fake()
			t1 := time.Now()
			plain()
			plainTime += time.Since(t1)
			fakeTime += t1.Sub(t0)
			n++
		}
		b.ReportMetric(float64(fakeTime.Nanoseconds())/float64(n), "fake-ns/op")
		b.ReportMetric(float64(plainTime.Nanoseconds())/float64(n), "httptest-ns/op")
	})
}

// BenchmarkHeapHTTP measures the heap held per stored 100-byte message when every message is
// sent through the HTTP API (POST /messages through the Server's handler, in-process), as a
// long-running fake holds it: the message, its index entries, its rows and the journal, at
// 10^5 and 10^6 messages (target ≤ 600 B at 10^6). rss/heap is the process's resident size
// over its live heap afterwards (target ≤ 2). One round each (`make bench`).
func BenchmarkHeapHTTP(b *testing.B) {
	// The fake binary's memory policy (fakeserver/serve), unless $GOGC asks for another.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(serve.DefaultGCPercent))
	}
	for _, n := range []int{1e5, 1e6} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				srv := fakeserver.New()
				owner := ownerAuth()
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range n {
					content := fmt.Sprintf("message %d ", i)
					content += strings.Repeat("x", 100-len(content))
					e := exchange{"POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {fmt.Sprint("topic ", i%100)}, "content": {content}}}
					if rec := e.do(srv, owner); rec.Code != http.StatusOK {
						b.Fatalf("message %d: %d %s", i, rec.Code, rec.Body)
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "heap-B/msg")
				gcPercent := debug.SetGCPercent(-1)
				debug.SetGCPercent(gcPercent)
				b.ReportMetric(float64(gcPercent), "gc-percent")
				if rss, ok := residentBytes(); ok {
					b.ReportMetric(float64(rss)/float64(after.HeapAlloc), "rss/heap")
				}
				runtime.KeepAlive(srv)
			}
		})
	}
}

// residentBytes is the process's resident set size, where /proc tells it (Linux).
func residentBytes() (int64, bool) {
	statm, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(statm), &size, &resident); err != nil {
		return 0, false
	}
	return resident * int64(os.Getpagesize()), true
}

// ownerAuth is the Authorization header of the default fixture's owner.
func ownerAuth() string {
	u, _ := fixtures.Default().UserByRole("owner")
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(u.Email+":"+u.APIKey))
}
