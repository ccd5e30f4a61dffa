// Package serve is the fake server's command line, shared by the fakeserver binary and
// `chatconform serve`: it prints the fake's URL and the credentials of the fixture's users,
// then serves until interrupted.
package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/openapi/check"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness/buildversion"
)

// Version is stamped at build time
// (-ldflags "-X github.com/chatconform/chatconform/fakeserver/serve.Version=…"; make image does);
// unstamped, it is what the build information records.
var Version = buildversion.Unstamped

func init() { Version = buildversion.Of(Version) }

// Main runs the command line args (without the program's name) as the program name and
// returns the exit status: 0, 1 on an error, 2 on bad flags.
func Main(name string, args []string) int {
	flags := flag.NewFlagSet(name, flag.ContinueOnError)
	addr := flags.String("addr", "127.0.0.1:9991", "address to listen on")
	healthcheck := flags.Bool("healthcheck", false, "ask the fake listening on -addr's port whether it answers, and exit 0 if it does (the container image's HEALTHCHECK: it has no shell or curl)")
	showVersion := flags.Bool("version", false, "print the version and exit")
	fixturePath := flags.String("fixture", "", "realm fixture file (YAML); default: the embedded default fixture")
	quiet := flags.Bool("quiet", false, "do not print the fixture's credentials")
	token := flags.String("control-token", os.Getenv(fakeserver.ControlTokenEnv),
		"bearer token the control API (/_fake/) requires (default $"+fakeserver.ControlTokenEnv+"); without one the control API is off on non-loopback addresses")
	clock := flags.String("clock", "", "clock mode: frozen (stands still at the fixture's start_time unless the control API moves it) or wall (starts at the wall time and runs with it); default: the fixture's clock setting")
	level := flags.Int("feature-level", 0, "behave as a server of this feature level (1 to 10000), from the start and after every reset; default: the fixture's")
	settings := flags.String("config", "", `configuration to start with, which every reset returns to: one JSON object with the settings PATCH /_fake/config takes (feature_level too), such as '{"push_configured": true}', or @file to read it from a file`)
	checkOpenAPI := flags.Bool("check-openapi", false, "validate every exchange against the fake's OpenAPI description; on exit print the figures and the violations, and exit 1 on any violation")
	gcPercent := flags.Int("gc-percent", DefaultGCPercent, "garbage-collection target: the heap grows by this percentage of the live heap between collections (the Go runtime's default is 100; lower keeps resident memory nearer the live heap for more collections; negative turns collection off); without the flag $GOGC applies where it is set")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	// The flag package stops at the first argument that is not a flag: every flag after a stray
	// word would be dropped, and the fake would start on defaults the user did not ask for.
	if flags.NArg() > 0 {
		fmt.Fprintf(flags.Output(), "%s: unexpected argument %q (the fake takes flags only; everything after it would be ignored)\n", name, flags.Arg(0))
		return 2
	}
	gcGiven := false
	flags.Visit(func(f *flag.Flag) { gcGiven = gcGiven || f.Name == "gc-percent" })
	if *showVersion {
		fmt.Println("fakeserver", Version)
		return 0
	}
	if *healthcheck {
		if err := checkHealth(*addr); err != nil {
			fmt.Fprintln(os.Stderr, name+": unhealthy:", err)
			return 1
		}
		return 0
	}
	if *clock != "" && *clock != string(fakeserver.ClockFrozen) && *clock != string(fakeserver.ClockWall) {
		fmt.Fprintln(os.Stderr, name+": -clock must be frozen or wall")
		return 2
	}
	start, err := startOptions(*level, *settings)
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		return 2
	}
	memoryPolicy(*gcPercent, gcGiven)
	if err := run(*addr, *fixturePath, *token, fakeserver.ClockMode(*clock), *quiet, *checkOpenAPI, start); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		return 1
	}
	return 0
}

// startOptions turns -feature-level and -config into the options of the state the fake starts
// with and every reset returns to.
func startOptions(level int, settings string) ([]fakeserver.Option, error) {
	var opts []fakeserver.Option
	if level != 0 {
		if level < 1 || level > 10_000 {
			return nil, fmt.Errorf("-feature-level must be 1 to 10000, not %d", level)
		}
		opts = append(opts, fakeserver.WithFeatureLevel(level))
	}
	if settings == "" {
		return opts, nil
	}
	data := []byte(settings)
	if file, ok := strings.CutPrefix(settings, "@"); ok {
		var err error
		if data, err = os.ReadFile(file); err != nil {
			return nil, fmt.Errorf("-config: %w", err)
		}
	}
	opt, err := fakeserver.ParseSettings(data)
	if err != nil {
		return nil, fmt.Errorf("-config: %w", err)
	}
	return append(opts, opt), nil
}

func run(addr, fixturePath, token string, clock fakeserver.ClockMode, quiet, checkOpenAPI bool, start []fakeserver.Option) error {
	fixture := fixtures.Default()
	if fixturePath != "" {
		f, err := fixtures.LoadFile(fixturePath)
		if err == nil {
			err = fakeserver.CheckFixture(f)
		}
		if err != nil {
			return err
		}
		fixture = f
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String()
	opts := append([]fakeserver.Option{fakeserver.WithFixture(fixture), fakeserver.WithClockMode(clock)}, start...)
	switch {
	case token != "":
		opts = append(opts, fakeserver.WithControlToken(token))
		fmt.Printf("chatconform fake server on %s (API at %s/api/v1, control at %s/_fake/ with the bearer token, and the inspector there in a browser)\n", url, url, url)
	case !isLoopback(ln.Addr()):
		// Anyone who reaches the port could reset the realm or mint API keys through it.
		opts = append(opts, fakeserver.WithoutControl())
		fmt.Printf("chatconform fake server on %s (API at %s/api/v1; control API off on a non-loopback address: set -control-token or $%s)\n", url, url, fakeserver.ControlTokenEnv)
	default:
		fmt.Printf("chatconform fake server on %s (API at %s/api/v1, control at %s/_fake/, and the inspector there in a browser)\n", url, url, url)
	}
	if !quiet {
		printCredentials(fixture)
	}
	fake := fakeserver.New(opts...)
	// Every client gets a bounded time to send its request and take its reply; long polls of
	// GET /events move their own deadlines past the poll timeout.
	var handler http.Handler = fake
	var checker *check.Checker
	if checkOpenAPI {
		if checker, err = check.New(); err != nil {
			return err
		}
		handler = checker.Wrap(fake)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: fakeserver.ReadHeaderTimeout,
		ReadTimeout:       fakeserver.ReadTimeout,
		WriteTimeout:      fakeserver.WriteTimeout,
		IdleTimeout:       fakeserver.IdleTimeout,
	}
	srv.RegisterOnShutdown(fake.Close)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-stopped // the last exchanges are answered (and checked) before the report
	if checker != nil {
		report := checker.Report()
		fmt.Println(report)
		if !report.OK() {
			return errors.New("replies that violate the OpenAPI description")
		}
	}
	return nil
}

// isLoopback reports whether the listener accepts connections from this machine only.
func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

func printCredentials(f *fixtures.Fixture) {
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ROLE\tEMAIL\tAPI KEY\tPASSWORD")
	for _, u := range f.Users {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", u.Role, u.Email, u.APIKey, u.Password)
	}
	_ = tw.Flush()
}

// checkHealth asks GET /api/v1/server_settings of the fake on addr's port over loopback: the
// public route answers whatever the control API's protection, and only once the realm is loaded.
func checkHealth(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 2 * time.Second}
	resp, err := client.Get("http://" + net.JoinHostPort("127.0.0.1", port) + "/api/v1/server_settings")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return nil
}
