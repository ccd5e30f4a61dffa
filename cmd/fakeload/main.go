// Command fakeload runs a bounded load against the fake server's binary on loopback, beside a
// bare net/http server (its own process, the fake binary's server timeouts) answering the same
// bytes in the same run, and prints a table (make load).
//
//	go run ./cmd/fakeload -messages 100000 -duration 3s
//
// The load generator is wrk (.ci/ensure-wrk installs it), which drives several times what Go
// clients in one process do: with those, the bare server measured the clients, and every ratio
// was pressed toward 1. Per route, in rounds, it measures what wrk alone drives, against a null
// server that answers without parsing HTTP, then the bare server and the fake under the same wrk
// settings, and reports the medians: both servers' throughput, their ratio and the fake's
// latency. wrk runs pinned to one core and each server under test to another (taskset), so
// that the two never take each other's CPU time. The run fails when the bare server comes
// within 10% of what wrk alone drives: the bare figure would then be the generator's limit, not
// the server's. Then how much a writer delays readers of the own user.
package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/base64"
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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

func main() {
	messages := flag.Int("messages", 10000, "messages stored before the load, in 100 topics of one channel")
	duration := flag.Duration("duration", 2*time.Second, "load time per route, server and round, whole seconds")
	rounds := flag.Int("rounds", 3, "rounds per route: each runs wrk against the null server, the bare server and the fake in turn")
	threads := flag.Int("threads", 1, "wrk threads")
	conns := flag.Int("connections", 16, "wrk connections, over all threads")
	maxShare := flag.Float64("max-bare-share", 0.9, "fail when the bare server reaches more than this fraction of what wrk alone drives")
	pin := flag.Bool("pin", true, "run wrk on one core and each server under test on another (taskset); needs two cores")
	gcPercent := flag.String("gc-percent", "", "the fake's -gc-percent (default: the binary's own memory policy)")
	nullReply := flag.String("serve-null", "", "internal: serve this file's bytes, without parsing HTTP, to every request on -bare-addr")
	bareReply := flag.String("serve-bare", "", "internal: serve this file's bytes to every request on -bare-addr")
	bareAddr := flag.String("bare-addr", "", "internal: the bare server's address")
	flag.Parse()
	if *nullReply != "" {
		// The null server serves until it is killed: it returns only on an error.
		fmt.Fprintln(os.Stderr, "fakeload null server:", runNull(*nullReply, *bareAddr))
		os.Exit(1)
	}
	if *bareReply != "" {
		if err := runBare(*bareReply, *bareAddr); err != nil {
			fmt.Fprintln(os.Stderr, "fakeload bare server:", err)
			os.Exit(1)
		}
		return
	}
	g := generator{threads: *threads, conns: *conns, duration: *duration, rounds: max(1, *rounds)}
	if *pin {
		var err error
		if g.cores, err = pinning(); err != nil {
			fmt.Fprintln(os.Stderr, "fakeload:", err)
			os.Exit(1)
		}
	}
	if err := run(*messages, g, *maxShare, *gcPercent); err != nil {
		fmt.Fprintln(os.Stderr, "fakeload:", err)
		os.Exit(1)
	}
}

// route is one request of the load. next gives request i for Go clients; luaPath and luaBody
// are the same as Lua expressions of the request counter i, for wrk.
type route struct {
	name             string
	next             func(i int) (method, path string, form url.Values)
	luaPath, luaBody string
}

func run(messages int, g generator, maxShare float64, gcPercent string) error {
	for _, tool := range []string{"wrk", "taskset"} {
		if _, err := exec.LookPath(tool); err != nil && (tool == "wrk" || g.cores != nil) {
			return fmt.Errorf("no %s on the PATH: run bash .ci/ensure-wrk (make load does)", tool)
		}
	}
	dir, err := os.MkdirTemp("", "fakeload")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	g.dir = dir
	bin := filepath.Join(dir, "fakeserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/fakeserver").CombinedOutput(); err != nil {
		return fmt.Errorf("building the fake: %w\n%s", err, out)
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	args := []string{"-addr", addr, "-quiet"}
	if gcPercent != "" {
		args = append(args, "-gc-percent", gcPercent)
	}
	fake := g.cores.server(bin, args...)
	fake.Stderr = os.Stderr
	if err := fake.Start(); err != nil {
		return err
	}
	defer func() { _ = fake.Process.Kill(); _ = fake.Wait() }()
	base := "http://" + addr
	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	const seeders = 4
	c := &client{http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: seeders * 2}}, base: base, user: owner.Email, key: owner.APIKey}
	if err := c.waitReady(10 * time.Second); err != nil {
		return err
	}
	start := time.Now()
	if err := c.seed(messages, seeders); err != nil {
		return err
	}
	g.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(owner.Email+":"+owner.APIKey))
	policy := "its own GC percent"
	if gcPercent != "" {
		policy = "GC percent " + gcPercent
	}
	fmt.Printf("fake binary on %s (%s), %d messages seeded in %s; wrk with %d threads and %d connections, %s per route, server and round, median of %d rounds; %s\n\n",
		addr, policy, messages, time.Since(start).Round(time.Millisecond), g.threads, g.conns, g.duration, g.rounds, g.cores)

	content := strings.Repeat("x", 100)
	send := url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"load"}, "content": {content}}
	narrow := url.QueryEscape(`[["channel","general"],["topic","topic 7"]]`)
	routes := []route{
		{"read", func(i int) (string, string, url.Values) {
			return "GET", fmt.Sprintf("/api/v1/messages/%d", i%messages+1), nil
		}, fmt.Sprintf(`"/api/v1/messages/" .. (i %% %d + 1)`, messages), ""},
		{"write", func(int) (string, string, url.Values) { return "POST", "/api/v1/messages", send },
			`"/api/v1/messages"`, strconv.Quote(send.Encode())},
		{"edit", func(i int) (string, string, url.Values) {
			return "PATCH", fmt.Sprintf("/api/v1/messages/%d", i%messages+1), url.Values{"content": {fmt.Sprint("edit ", i)}}
		}, fmt.Sprintf(`"/api/v1/messages/" .. (i %% %d + 1)`, messages), `"content=edit+" .. i`},
		{"own-user", func(int) (string, string, url.Values) { return "GET", "/api/v1/users/me", nil }, `"/api/v1/users/me"`, ""},
		{"topics", func(int) (string, string, url.Values) { return "GET", "/api/v1/users/me/1/topics", nil }, `"/api/v1/users/me/1/topics"`, ""},
		{"narrow-20", func(int) (string, string, url.Values) {
			return "GET", "/api/v1/messages?anchor=newest&num_before=20&num_after=0&narrow=" + narrow, nil
		}, strconv.Quote("/api/v1/messages?anchor=newest&num_before=20&num_after=0&narrow=" + narrow), ""},
	}
	fmt.Printf("%-10s %12s %12s %8s %10s %10s %12s %9s\n", "route", "fake req/s", "bare req/s", "x-bare", "fake p50", "fake p99", "wrk alone", "bare/wrk")
	var saturated []string
	for _, r := range routes {
		method, path, form := r.next(0)
		reply, err := c.do(method, path, form)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		// What wrk alone drives with these requests, against a server that does next to
		// nothing, then the bare server and the fake, in turn for each round: the machine's
		// load drifts, and each figure is the median of its rounds.
		null, err := startServer(g.cores, dir, "-serve-null", reply)
		if err != nil {
			return err
		}
		bare, err := startServer(g.cores, dir, "-serve-bare", reply)
		if err != nil {
			null.stop()
			return err
		}
		var runs [3][]stats // null, bare, fake
		for range g.rounds {
			for i, url := range []string{null.url, bare.url, base} {
				st, err := g.load(r, method, url)
				if err != nil {
					null.stop()
					bare.stop()
					return fmt.Errorf("%s against %s: %w", r.name, url, err)
				}
				runs[i] = append(runs[i], st)
			}
		}
		null.stop()
		bare.stop()
		capacity, bareStats, fakeStats := median(runs[0]), median(runs[1]), median(runs[2])
		share := bareStats.rate / capacity.rate
		fmt.Printf("%-10s %12.0f %12.0f %8.2f %10s %10s %12.0f %8.0f%%\n", r.name, fakeStats.rate, bareStats.rate, fakeStats.rate/bareStats.rate,
			fakeStats.p50.Round(time.Microsecond), fakeStats.p99.Round(time.Microsecond), capacity.rate, 100*share)
		if share > maxShare {
			saturated = append(saturated, fmt.Sprintf("%s (%.0f%%)", r.name, 100*share))
		}
	}

	// Readers of the own user alone, then beside a writer that sends without pause.
	own := routes[3]
	alone, err := g.load(own, "GET", base)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(context.Background())
	var writes atomic.Int64
	go func() {
		for ctx.Err() == nil {
			if _, err := c.do("POST", "/api/v1/messages", send); err == nil {
				writes.Add(1)
			}
		}
	}()
	beside, err := g.load(own, "GET", base)
	stop()
	if err != nil {
		return err
	}
	fmt.Printf("\nown-user readers: p99 %s alone, %s beside a writer (%d writes): a writer delays a reader by %s at p99\n",
		alone.p99.Round(time.Microsecond), beside.p99.Round(time.Microsecond), writes.Load(), (beside.p99 - alone.p99).Round(time.Microsecond))
	if len(saturated) > 0 {
		return fmt.Errorf("the load generator was the bottleneck: the bare server reached more than %.0f%% of what wrk alone drives on %s, so the bare figures are wrk's limit and the ratios are pressed toward 1 (pin wrk and the servers to cores of their own, -pin, on a quiet machine; or change wrk's -threads or -connections)",
			100*maxShare, strings.Join(saturated, ", "))
	}
	return nil
}

// generator runs wrk.
type generator struct {
	threads, conns int
	duration       time.Duration
	rounds         int
	auth           string // the Authorization header's value
	dir            string // where its scripts go
	cores          *cores // nil: wrk and the servers share every core
}

// cores pins wrk to one core and the servers under test to another. Sharing two cores, wrk and
// the server take each other's time: the bare server then reaches nearly what wrk drives
// against the null server, and the check cannot tell the generator's limit from the server's.
// Pinned, wrk has a core the server never takes, so what it drives against the null server is
// its own limit, and the bare server on its single core stays well below it.
type cores struct{ generatorCPU, serverCPU string }

// pinning picks the first two cores this process may run on.
func pinning() (*cores, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil, fmt.Errorf("-pin: %w", err)
	}
	var allowed []string
	for line := range strings.Lines(string(status)) {
		if list, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			allowed = cpuList(strings.TrimSpace(list))
		}
	}
	if len(allowed) < 2 {
		return nil, fmt.Errorf("-pin needs two cores to run on, and this process may use %d (-pin=false shares them, and the yardstick check will likely fail)", len(allowed))
	}
	return &cores{generatorCPU: allowed[0], serverCPU: allowed[1]}, nil
}

// cpuList expands a kernel CPU list such as "0-2,5" into its CPU numbers.
func cpuList(list string) []string {
	var cpus []string
	for part := range strings.SplitSeq(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		first, err1 := strconv.Atoi(lo)
		last, err2 := strconv.Atoi(hi)
		if !isRange {
			last, err2 = first, nil
		}
		if err1 != nil || err2 != nil {
			continue
		}
		for cpu := first; cpu <= last; cpu++ {
			cpus = append(cpus, strconv.Itoa(cpu))
		}
	}
	return cpus
}

func (c *cores) String() string {
	if c == nil {
		return "wrk and the servers share every core"
	}
	return fmt.Sprintf("wrk on CPU %s, each server on CPU %s (GOMAXPROCS=1)", c.generatorCPU, c.serverCPU)
}

// server is the command of a server under test, on the servers' core: the Go runtime is told it
// has one processor, as it would find from its affinity.
func (c *cores) server(name string, args ...string) *exec.Cmd {
	if c == nil {
		return exec.Command(name, args...)
	}
	cmd := exec.Command("taskset", append([]string{"-c", c.serverCPU, name}, args...)...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	return cmd
}

// wrk is the command of wrk, on the generator's core.
func (c *cores) wrk(args ...string) *exec.Cmd {
	if c == nil {
		return exec.Command("wrk", args...)
	}
	return exec.Command("taskset", append([]string{"-c", c.generatorCPU, "wrk"}, args...)...)
}

type stats struct {
	rate     float64
	p50, p99 time.Duration
}

// median is the run of the median rate.
func median(runs []stats) stats {
	slices.SortFunc(runs, func(a, b stats) int { return cmp.Compare(a.rate, b.rate) })
	return runs[len(runs)/2]
}

// load runs wrk with the route's requests against base for the generator's duration.
func (g generator) load(r route, method, base string) (stats, error) {
	body := "nil"
	headers := fmt.Sprintf(`{["Authorization"] = %q}`, g.auth)
	if r.luaBody != "" {
		body = r.luaBody
		headers = fmt.Sprintf(`{["Authorization"] = %q, ["Content-Type"] = "application/x-www-form-urlencoded"}`, g.auth)
	}
	script := fmt.Sprintf(`local i = 0
request = function()
  i = i + 1
  return wrk.format(%q, %s, %s, %s)
end
`, method, r.luaPath, headers, body)
	file := filepath.Join(g.dir, r.name+".lua")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		return stats{}, err
	}
	out, err := g.cores.wrk("-t", strconv.Itoa(g.threads), "-c", strconv.Itoa(g.conns),
		"-d", fmt.Sprintf("%ds", max(1, int(g.duration.Seconds()))), "--latency", "-s", file, base).Output()
	if err != nil {
		return stats{}, fmt.Errorf("wrk: %w\n%s", err, out)
	}
	return parseWrk(string(out))
}

// parseWrk reads wrk's report: the rate, the 50th and 99th percentiles of its latency
// distribution, and any answer that was not a success, which fails the run.
func parseWrk(out string) (stats, error) {
	var st stats
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "Requests/sec:":
			st.rate, _ = strconv.ParseFloat(f[1], 64)
		case len(f) == 2 && (f[0] == "50%" || f[0] == "99%"):
			d, err := time.ParseDuration(f[1])
			if err != nil {
				return st, fmt.Errorf("wrk latency %q: %w", f[1], err)
			}
			if f[0] == "50%" {
				st.p50 = d
			} else {
				st.p99 = d
			}
		case strings.HasPrefix(line, "  Non-2xx or 3xx responses:"), strings.HasPrefix(line, "  Socket errors:"):
			return st, fmt.Errorf("wrk: %s", strings.TrimSpace(line))
		}
	}
	if st.rate == 0 {
		return st, fmt.Errorf("wrk reported no rate:\n%s", out)
	}
	return st, nil
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

// bareServer answers every request with the same bytes: the bare server as cheaply as net/http
// allows, the null server without net/http. Each runs as a process of its own, as the fake does
// (the bare one under the same server timeouts), so that the ratio compares the handlers and not
// two ways of being served (the bare server once shared the load generator's process, which
// favoured it).
type bareServer struct {
	url  string
	stop func()
}

// startServer starts this command again as the server of reply that mode ("-serve-bare" or
// "-serve-null") names.
func startServer(pin *cores, dir, mode string, reply []byte) (*bareServer, error) {
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
	cmd := pin.server(self, mode, file, "-bare-addr", addr)
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

// runNull is the null server's process: it answers every request on a connection with the
// reply, reading no more of the request than where it ends (its header, and a body of the
// Content-Length it names), so that it costs next to nothing and wrk sets the pace.
func runNull(file, addr string) error {
	reply, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	answer := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(reply), reply)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	for {
		conn, err := ln.Accept()
		if err != nil {
			return err
		}
		go func() {
			defer conn.Close()
			r := bufio.NewReader(conn)
			for {
				length := 0
				for {
					line, err := r.ReadSlice('\n')
					if err != nil {
						return
					}
					if len(line) <= 2 {
						break
					}
					if name, value, ok := strings.Cut(string(line), ":"); ok && strings.EqualFold(name, "Content-Length") {
						length, _ = strconv.Atoi(strings.TrimSpace(value))
					}
				}
				if _, err := r.Discard(length); err != nil {
					return
				}
				if _, err := conn.Write(answer); err != nil {
					return
				}
			}
		}()
	}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
