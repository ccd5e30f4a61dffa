package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver/container"
)

// TestContainerImagePassesTheSuite builds the fake's container image from the Dockerfile,
// starts it with the container package (testcontainers-go), and runs the whole conformance suite against it: the
// image a client developer pulls is the fake that passes. It needs a Docker engine; .ci/run
// installs and starts one.
func TestContainerImagePassesTheSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a Docker engine and a minute; skipped with -short")
	}
	container.SkipWithoutEngine(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	fake, err := container.Run(ctx)
	if err != nil {
		t.Fatalf("starting the fake's container (needs a Docker engine): %v", err)
	}
	t.Cleanup(func() { _ = fake.Terminate(context.Background()) })
	url, token := fake.URL, fake.ControlToken
	checkImage(ctx, t, fake.ID())

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
	runRunnerImage(ctx, t, root, url, token)
}

// runRunnerImage builds the runner's image (Dockerfile.runner) as make image does and runs it
// against the fake's container, as a CI pipeline would: a few requirements, exit 0, the
// reports written to the mounted directory.
func runRunnerImage(ctx context.Context, t *testing.T, root, url, token string) {
	t.Helper()
	dir := t.TempDir()
	build := exec.CommandContext(ctx, "go", "build", "-ldflags", "-X github.com/chatconform/chatconform/harness.Version=test",
		"-o", filepath.Join(dir, "bin", "chatconform"), "./cmd/chatconform")
	build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the runner: %v\n%s", err, out)
	}
	certs, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		t.Skipf("no CA certificates to put in the runner's image: %v", err)
	}
	dockerfile, err := os.ReadFile(filepath.Join(root, "Dockerfile.runner"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"bin/ca-certificates.crt": certs, "Dockerfile": dockerfile} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	image := "chatconform/runner:test"
	if out, err := exec.CommandContext(ctx, "docker", "build", "--build-arg", "VERSION=test", "-t", image, dir).CombinedOutput(); err != nil {
		t.Fatalf("building the runner's image: %v\n%s", err, out)
	}
	reports := t.TempDir()
	run := exec.CommandContext(ctx, "docker", "run", "--rm", "--network", "host", "--user", fmt.Sprintf("%d", os.Getuid()),
		"-v", reports+":/reports", "-e", "CHATCONFORM_CONTROL_TOKEN="+token, image,
		"-chatconform.url", url, "-chatconform.owner-email", "owner@chat.example.test",
		"-chatconform.owner-api-key", "OwnerKey000000000000000000000001", "-ginkgo.label-filter=req:OP06-09 || req:AUTH-05")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the runner's image against the fake's container: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(reports, "conformance.json")); err != nil {
		t.Errorf("the runner's image wrote no report to the mounted directory: %v\n%s", err, out)
	}
	t.Logf("the runner's image (version test) checked the container and wrote its reports")
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
func checkImage(ctx context.Context, t *testing.T, id string) {
	t.Helper()
	// container.Run returns once the container is healthy.
	started, err := exec.CommandContext(ctx, "docker", "inspect", "--format", "{{.State.StartedAt}}|{{.State.Health.Status}}", id).Output()
	if err != nil {
		t.Fatalf("docker inspect: %v", err)
	}
	at, health, _ := strings.Cut(strings.TrimSpace(string(started)), "|")
	if health != "healthy" {
		t.Errorf("health %q", health)
	}
	if since, err := time.Parse(time.RFC3339Nano, at); err == nil {
		t.Logf("healthy %s after the container started", time.Since(since).Round(10*time.Millisecond))
	}
	out, err := exec.CommandContext(ctx, "docker", "inspect", "--format",
		"{{.Config.User}}|{{index .Config.Labels \"org.opencontainers.image.source\"}}|{{index .Config.Labels \"org.opencontainers.image.licenses\"}}", id).Output()
	if err != nil {
		t.Fatalf("docker inspect: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "65532:65532|https://github.com/chatconform/chatconform|Apache-2.0" {
		t.Errorf("user and labels: %q", got)
	}
	image, err := exec.CommandContext(ctx, "docker", "inspect", "--format", "{{.Image}}", id).Output()
	if err == nil {
		size, _ := exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{.Size}}", strings.TrimSpace(string(image))).Output()
		t.Logf("image size %s bytes", strings.TrimSpace(string(size)))
	}
}
