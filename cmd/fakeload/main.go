// Command fakeload runs a bounded load against the fake server's binary on loopback, beside a
// bare net/http server (its own process, the fake binary's server timeouts) answering the same
// bytes in the same run, and prints a table (make load).
//
//	go run ./cmd/fakeload -messages 100000 -duration 3s
//
// Per route it reports the fake's and the bare server's throughput with the same clients, their
// ratio and the fake's latency; then how much a writer delays readers of the own user.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

func main() {
	messages := flag.Int("messages", 10000, "messages stored before the load, in 100 topics of one channel")
	duration := flag.Duration("duration", 2*time.Second, "load time per route and server")
	clients := flag.Int("clients", 4, "concurrent clients")
	bareReply := flag.String("serve-bare", "", "internal: serve this file's bytes to every request on -bare-addr")
	bareAddr := flag.String("bare-addr", "", "internal: the bare server's address")
	flag.Parse()
	if *bareReply != "" {
		if err := runBare(*bareReply, *bareAddr); err != nil {
			fmt.Fprintln(os.Stderr, "fakeload bare server:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*messages, *duration, *clients); err != nil {
		fmt.Fprintln(os.Stderr, "fakeload:", err)
		os.Exit(1)
	}
}

// route is one request of the load; next varies it by the request's number.
type route struct {
	name string
	next func(i int) (method, path string, form url.Values)
}

func run(messages int, duration time.Duration, clients int) error {
	dir, err := os.MkdirTemp("", "fakeload")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "fakeserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/fakeserver").CombinedOutput(); err != nil {
		return fmt.Errorf("building the fake: %w\n%s", err, out)
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	fake := exec.Command(bin, "-addr", addr, "-quiet")
	fake.Stderr = os.Stderr
	if err := fake.Start(); err != nil {
		return err
	}
	defer func() { _ = fake.Process.Kill(); _ = fake.Wait() }()
	base := "http://" + addr
	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	c := &client{http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients * 2}}, base: base, user: owner.Email, key: owner.APIKey}
	if err := c.waitReady(10 * time.Second); err != nil {
		return err
	}
	start := time.Now()
	if err := c.seed(messages, clients); err != nil {
		return err
	}
	fmt.Printf("fake binary on %s, %d messages seeded in %s; %d clients, %s per route and server\n\n",
		addr, messages, time.Since(start).Round(time.Millisecond), clients, duration)

	content := strings.Repeat("x", 100)
	routes := []route{
		{"read", func(i int) (string, string, url.Values) {
			return "GET", fmt.Sprintf("/api/v1/messages/%d", i%messages+1), nil
		}},
		{"write", func(int) (string, string, url.Values) {
			return "POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"load"}, "content": {content}}
		}},
		{"edit", func(i int) (string, string, url.Values) {
			return "PATCH", fmt.Sprintf("/api/v1/messages/%d", i%messages+1), url.Values{"content": {fmt.Sprint("edit ", i)}}
		}},
		{"own-user", func(int) (string, string, url.Values) { return "GET", "/api/v1/users/me", nil }},
		{"topics", func(int) (string, string, url.Values) { return "GET", "/api/v1/users/me/1/topics", nil }},
		{"narrow-20", func(int) (string, string, url.Values) {
			narrow := url.QueryEscape(`[["channel","general"],["topic","topic 7"]]`)
			return "GET", "/api/v1/messages?anchor=newest&num_before=20&num_after=0&narrow=" + narrow, nil
		}},
	}
	fmt.Printf("%-10s %12s %12s %8s %10s %10s\n", "route", "fake req/s", "bare req/s", "x-bare", "fake p50", "fake p99")
	for _, r := range routes {
		method, path, form := r.next(0)
		reply, err := c.do(method, path, form)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		bare, err := startBare(dir, reply)
		if err != nil {
			return err
		}
		fakeStats := c.load(r, duration, clients)
		bareStats := (&client{http: c.http, base: bare.url, user: c.user, key: c.key}).load(r, duration, clients)
		bare.stop()
		fmt.Printf("%-10s %12.0f %12.0f %8.2f %10s %10s\n", r.name, fakeStats.rate, bareStats.rate, fakeStats.rate/bareStats.rate,
			fakeStats.p50.Round(time.Microsecond), fakeStats.p99.Round(time.Microsecond))
	}

	// Readers of the own user alone, then beside a writer that sends without pause.
	own := routes[3]
	alone := c.load(own, duration, clients)
	ctx, stop := context.WithCancel(context.Background())
	var writes atomic.Int64
	go func() {
		for ctx.Err() == nil {
			method, path, form := routes[1].next(0)
			if _, err := c.do(method, path, form); err == nil {
				writes.Add(1)
			}
		}
	}()
	beside := c.load(own, duration, clients)
	stop()
	fmt.Printf("\nown-user readers: p99 %s alone, %s beside a writer (%d writes): a writer delays a reader by %s at p99\n",
		alone.p99.Round(time.Microsecond), beside.p99.Round(time.Microsecond), writes.Load(), (beside.p99 - alone.p99).Round(time.Microsecond))
	return nil
}

type client struct {
	http            *http.Client
	base, user, key string
}

func (c *client) do(method, path string, form url.Values) ([]byte, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.SetBasicAuth(c.user, c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, data)
	}
	return data, err
}

func (c *client) waitReady(within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		if _, err := c.do("GET", "/api/v1/server_settings", nil); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			return fmt.Errorf("the fake did not answer within %s: %w", within, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// seed sends n messages to the channel general, in 100 topics, from clients senders at once.
func (c *client) seed(n, clients int) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	content := strings.Repeat("x", 100)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				form := url.Values{"type": {"stream"}, "to": {"general"}, "topic": {fmt.Sprint("topic ", i%100)}, "content": {content}}
				if _, err := c.do("POST", "/api/v1/messages", form); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

type stats struct {
	rate     float64
	p50, p99 time.Duration
}

// load sends the route's requests from clients goroutines for d and measures them.
func (c *client) load(r route, d time.Duration, clients int) stats {
	var mu sync.Mutex
	var latencies []time.Duration
	var n atomic.Int64
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for time.Now().Before(end) {
				method, path, form := r.next(int(n.Add(1)))
				t0 := time.Now()
				if _, err := c.do(method, path, form); err != nil {
					fmt.Fprintln(os.Stderr, "fakeload:", err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(latencies)
	if len(latencies) == 0 {
		return stats{}
	}
	return stats{rate: float64(len(latencies)) / d.Seconds(),
		p50: latencies[len(latencies)/2], p99: latencies[len(latencies)*99/100]}
}

// bareServer answers every request with the same bytes, as cheaply as net/http allows. It runs
// as a process of its own, as the fake does, under the same server timeouts, so that the ratio
// compares the handlers and not two ways of being served (it once shared the load generator's
// process, which favoured it).
type bareServer struct {
	url  string
	stop func()
}

// startBare starts this command again as the bare server of reply.
func startBare(dir string, reply []byte) (*bareServer, error) {
	file := filepath.Join(dir, "reply.json")
	if err := os.WriteFile(file, reply, 0o600); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-serve-bare", file, "-bare-addr", addr)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	probe := &client{http: http.DefaultClient, base: "http://" + addr}
	if err := probe.waitReady(10 * time.Second); err != nil {
		stop()
		return nil, err
	}
	return &bareServer{url: "http://" + addr, stop: stop}, nil
}

// runBare is the bare server's process.
func runBare(file, addr string) error {
	reply, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Addr: addr,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(reply)
		}),
		ReadHeaderTimeout: fakeserver.ReadHeaderTimeout,
		ReadTimeout:       fakeserver.ReadTimeout,
		WriteTimeout:      fakeserver.WriteTimeout,
		IdleTimeout:       fakeserver.IdleTimeout,
	}
	return srv.ListenAndServe()
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
