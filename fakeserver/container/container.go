// Package container runs the chatconform fake server as a container for tests, with
// testcontainers-go: a client developer's test gets a fake with its own lifetime, reachable
// over the network like the server it stands for.
//
//	c, err := container.Run(ctx, container.WithFeatureLevel(300))
//	defer c.Terminate(ctx)
//	// c.URL + "/api/v1", authenticate as c.Owner; c.Control("PATCH", "/_fake/config", …)
package container

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	dockercontainer "github.com/moby/moby/api/types/container"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// Container is a running fake.
type Container struct {
	// URL is the fake's base URL on the host; the API is under URL + "/api/v1".
	URL string
	// ControlToken is the bearer token of its control API (/_fake/), which it requires since it
	// listens on every interface inside the container.
	ControlToken string
	// Owner is the realm owner's account of the fixture it runs.
	Owner fixtures.User

	c testcontainers.Container
}

type options struct {
	image       string
	fixturePath string
	level       int
	config      map[string]any
	token       string
	user        string
}

// Option configures Run.
type Option func(*options)

// WithImage runs the given image (for example chatconform/fakeserver:v1, from `make image`)
// instead of building one from this module's sources.
func WithImage(name string) Option { return func(o *options) { o.image = name } }

// WithFixture mounts a fixture file (YAML) and starts the fake on it.
func WithFixture(path string) Option { return func(o *options) { o.fixturePath = path } }

// WithFeatureLevel makes the fake behave as a server of that feature level, from the start and
// after every reset (the binary's -feature-level).
func WithFeatureLevel(level int) Option { return func(o *options) { o.level = level } }

// WithConfig starts the fake with configuration settings, by the names and values PATCH
// /_fake/config takes; every reset returns to them (the binary's -config).
func WithConfig(settings map[string]any) Option { return func(o *options) { o.config = settings } }

// WithControlToken sets the control API's token (a random one otherwise).
func WithControlToken(token string) Option { return func(o *options) { o.token = token } }

// WithUser runs the container as user ("uid:gid", as docker run --user takes it) instead of
// the image's own unprivileged user: the fake needs no privilege and no writable file, so it
// runs as whatever user a CI job or a platform assigns.
func WithUser(user string) Option { return func(o *options) { o.user = user } }

// Run starts the fake's container with the options' fixture, level and configuration, and
// waits until it is healthy. Where no Docker engine answers, it returns the engine's error.
func Run(ctx context.Context, opts ...Option) (*Container, error) {
	o := options{token: rand.Text()}
	for _, opt := range opts {
		opt(&o)
	}
	fixture := fixtures.Default()
	if o.fixturePath != "" {
		f, err := fixtures.LoadFile(o.fixturePath)
		if err != nil {
			return nil, err
		}
		fixture = f
	}
	owner, _ := fixture.UserByRole(fixtures.RoleOwner)
	req := testcontainers.ContainerRequest{
		Image:        o.image,
		ExposedPorts: []string{"9991/tcp"},
		Env:          map[string]string{fakeserver.ControlTokenEnv: o.token},
		WaitingFor:   wait.ForHealthCheck().WithStartupTimeout(time.Minute),
	}
	if o.user != "" {
		req.ConfigModifier = func(c *dockercontainer.Config) { c.User = o.user }
	}
	if o.image == "" {
		buildContext, err := buildContext()
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(buildContext)
		req.FromDockerfile = testcontainers.FromDockerfile{Context: buildContext, Dockerfile: "Dockerfile"}
	}
	if o.fixturePath != "" {
		abs, err := filepath.Abs(o.fixturePath)
		if err != nil {
			return nil, err
		}
		req.Files = []testcontainers.ContainerFile{{HostFilePath: abs, ContainerFilePath: "/fixtures/realm.yaml", FileMode: 0o444}}
		req.Cmd = append(req.Cmd, "-fixture", "/fixtures/realm.yaml")
	}
	// Flags rather than control requests once it runs, so that a reset keeps them.
	if o.level != 0 {
		req.Cmd = append(req.Cmd, "-feature-level", strconv.Itoa(o.level))
	}
	if len(o.config) > 0 {
		settings, err := json.Marshal(o.config)
		if err == nil { // refused here, rather than by a container that never becomes healthy
			_, err = fakeserver.ParseSettings(settings)
		}
		if err != nil {
			return nil, fmt.Errorf("container: WithConfig: %w", err)
		}
		req.Cmd = append(req.Cmd, "-config", string(settings))
	}
	c, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{ContainerRequest: req, Started: true})
	if err != nil {
		return nil, fmt.Errorf("container: starting the fake: %w", err)
	}
	url, err := c.PortEndpoint(ctx, "9991/tcp", "http")
	if err != nil {
		_ = c.Terminate(ctx)
		return nil, err
	}
	return &Container{URL: url, ControlToken: o.token, Owner: owner, c: c}, nil
}

// Control sends a request to the fake's control API with its token and a JSON body (nil for
// none), and returns the reply's body; an error reply is an error.
func (c *Container) Control(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.URL+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.ControlToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("container: %s %s: HTTP %d: %s", method, path, resp.StatusCode, data)
	}
	return data, err
}

// ID is the container's id, for docker commands.
func (c *Container) ID() string { return c.c.GetContainerID() }

// Terminate stops and removes the container.
func (c *Container) Terminate(ctx context.Context) error { return c.c.Terminate(ctx) }

// buildContext makes a Docker build context from this module: the final stage of its
// Dockerfile and the fake's static binary, built here into a temporary directory (the module
// itself may be read-only, as in the module cache). The Dockerfile's own build stage compiles
// in a Go image from a registry, without the build cache; the image is the same.
func buildContext() (string, error) {
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("container: cannot find this module's sources")
	}
	root := filepath.Join(filepath.Dir(self), "..", "..")
	dir, err := os.MkdirTemp("", "chatconform-image")
	if err != nil {
		return "", err
	}
	dockerfile, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err == nil {
		dockerfile, err = finalStage(dockerfile)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "Dockerfile"), dockerfile, 0o644)
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "fakeserver", "fakeserver"), "./cmd/fakeserver")
	build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("container: building the fake: %w\n%s", err, out)
	}
	return dir, nil
}

// stageCopy is the final stage's one instruction that takes from the build stage; finalStage
// points it at the build context instead.
const stageCopy = "COPY --from=build /out/fakeserver/ /"

// finalStage returns the Dockerfile's last stage, the image itself, taking the fake's files
// from the build context's fakeserver/ directory instead of the build stage.
func finalStage(dockerfile []byte) ([]byte, error) {
	text := string(dockerfile)
	from := strings.LastIndex(text, "\nFROM ")
	if from < 0 || strings.Count(text[from:], stageCopy) != 1 {
		return nil, fmt.Errorf("container: the Dockerfile's last stage has no line %q", stageCopy)
	}
	return []byte(strings.Replace(text[from+1:], stageCopy, "COPY fakeserver/ /", 1)), nil
}

// SkipWithoutEngine prepares testcontainers for a local Docker engine and skips the test, with
// the reason, where none answers. The reaper container (Ryuk) is turned off, as its image comes
// from a registry a sandboxed machine may not reach: Terminate cleans up instead. Call it before
// anything else touches testcontainers, which reads its settings once per process: they are
// set for the whole process (t.Setenv would put them back too late to matter, and would keep
// the test from running in parallel).
func SkipWithoutEngine(t testing.TB) {
	t.Helper()
	_ = os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	// Under a sandboxed kernel testcontainers takes itself for a container and dials the bridge
	// gateway; a local engine publishes ports on the loopback address.
	if os.Getenv("TESTCONTAINERS_HOST_OVERRIDE") == "" && os.Getenv("DOCKER_HOST") == "" {
		_ = os.Setenv("TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1")
	}
	provider, err := testcontainers.NewDockerProvider()
	if err == nil {
		defer provider.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err = provider.Health(ctx)
	}
	if err != nil {
		t.Skipf("needs a Docker engine (make test starts one where it can): %v", err)
	}
}
