package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/chatconform/chatconform/fakeserver"
)

// TestContainerImagePassesTheSuite builds the fake's container image from the Dockerfile,
// starts it with testcontainers-go, and runs the whole conformance suite against it: the
// image a client developer pulls is the fake that passes. It needs a Docker engine; .ci/run
// installs and starts one.
func TestContainerImagePassesTheSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a Docker engine and a minute; skipped with -short")
	}
	// testcontainers reads its settings once, so they are set before anything touches it.
	// Ryuk, testcontainers' reaper, is an image from a registry this machine cannot reach;
	// the container is terminated by the test's cleanup instead.
	t.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	// Under a sandboxed kernel testcontainers takes itself for a container and dials the
	// bridge gateway; a local engine publishes ports on the loopback address.
	if os.Getenv("TESTCONTAINERS_HOST_OVERRIDE") == "" && os.Getenv("DOCKER_HOST") == "" {
		t.Setenv("TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1")
	}
	if err := dockerEngineAnswers(); err != nil {
		t.Skipf("needs a Docker engine (make test starts one where it can): %v", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(root, "bin", "fakeserver"), "./cmd/fakeserver")
	build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the static binary: %v\n%s", err, out)
	}

	token := rand.Text()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	fake, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			FromDockerfile: testcontainers.FromDockerfile{Context: root, Dockerfile: "Dockerfile"},
			ExposedPorts:   []string{"9991/tcp"},
			// The container listens on 0.0.0.0, where the control API needs a token.
			Env:        map[string]string{fakeserver.ControlTokenEnv: token},
			WaitingFor: wait.ForHTTP("/_fake/health").WithPort("9991/tcp").WithHeaders(map[string]string{"Authorization": "Bearer " + token}).WithStartupTimeout(time.Minute),
		},
		Started: true,
	})
	if err != nil {
		t.Fatalf("starting the fake's container (needs a Docker engine): %v", err)
	}
	t.Cleanup(func() { _ = fake.Terminate(context.Background()) })
	url, err := fake.PortEndpoint(ctx, "9991/tcp", "http")
	if err != nil {
		t.Fatal(err)
	}
	checkImage(ctx, t, fake)

	// As many processes as make test's PROCS (one per core, at least 2).
	suite := exec.CommandContext(ctx, "go", "tool", "ginkgo", fmt.Sprintf("--procs=%d", max(2, runtime.NumCPU())), "--randomize-all", "./specs")
	suite.Dir = root
	suite.Env = append(withoutSettings(os.Environ()),
		"CHATCONFORM_URL="+url,
		"CHATCONFORM_OWNER_EMAIL=owner@chat.example.test",
		"CHATCONFORM_OWNER_API_KEY=OwnerKey000000000000000000000001",
		"CHATCONFORM_CONTROL_TOKEN="+token,
		"CHATCONFORM_REPORT_DIR="+filepath.Join(root, "reports", "container"),
	)
	out, err := suite.CombinedOutput()
	if err != nil {
		t.Fatalf("the suite failed against the container at %s: %v\n%s", url, err, out)
	}
	t.Logf("the suite passed against the container at %s", url)
}

// dockerEngineAnswers reports whether a Docker engine is reachable, so the test is skipped
// with that reason where there is none rather than failing on the environment.
func dockerEngineAnswers() error {
	provider, err := testcontainers.NewDockerProvider()
	if err != nil {
		return err
	}
	defer provider.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return provider.Health(ctx)
}

// withoutSettings drops chatconform settings from an environment, so that only the ones the
// test sets decide what the suite runs against.
func withoutSettings(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "CHATCONFORM_") {
			out = append(out, kv)
		}
	}
	return out
}

// checkImage: the container reports itself healthy through the image's HEALTHCHECK (the binary
// asks itself, the image having no shell), runs as a user that is not root, and carries the OCI
// labels; it logs how long it took from start to healthy and the image's size.
func checkImage(ctx context.Context, t *testing.T, c testcontainers.Container) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		state, err := c.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if state.Health != nil && state.Health.Status == "healthy" {
			started, _ := time.Parse(time.RFC3339Nano, state.StartedAt)
			t.Logf("healthy %s after the container started", time.Since(started).Round(10*time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the container is not healthy after 30 s: %+v", state.Health)
		}
		time.Sleep(100 * time.Millisecond)
	}
	out, err := exec.CommandContext(ctx, "docker", "inspect", "--format",
		"{{.Config.User}}|{{index .Config.Labels \"org.opencontainers.image.source\"}}|{{index .Config.Labels \"org.opencontainers.image.licenses\"}}", c.GetContainerID()).Output()
	if err != nil {
		t.Fatalf("docker inspect: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "65532:65532|https://github.com/chatconform/chatconform|Apache-2.0" {
		t.Errorf("user and labels: %q", got)
	}
	image, err := exec.CommandContext(ctx, "docker", "inspect", "--format", "{{.Image}}", c.GetContainerID()).Output()
	if err == nil {
		size, _ := exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{.Size}}", strings.TrimSpace(string(image))).Output()
		t.Logf("image size %s bytes", strings.TrimSpace(string(size)))
	}
}
