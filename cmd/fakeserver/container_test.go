package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver/container"
	"github.com/chatconform/chatconform/internal/testctx"
)

// TestContainerImagePassesTheSuite builds both images as a user would (`docker build` from the
// repository root, nothing prepared), starts the fake's with the container package
// (testcontainers-go), and runs the whole conformance suite against it: the image a client
// developer builds is the fake that passes. Then it runs the runner's image against it the ways
// a CI pipeline does. It needs a Docker engine; .ci/run installs and starts one.
func TestContainerImagePassesTheSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a Docker engine and minutes; skipped with -short")
	}
	// Beside the package's other long tests, which wait on Node.js and the fake's binary as
	// this one waits on Docker.
	t.Parallel()
	container.SkipWithoutEngine(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// Compiling from an empty cache takes what the machine's load makes it: no budget of its own.
	ctx := testctx.Context(t)
	fakeImage, runnerImage := buildImages(ctx, t, root)
	// As a user the image does not name (a CI job's or a platform's), not its own 65532.
	fake, err := container.Run(ctx, container.WithImage(fakeImage), container.WithUser(jobUser))
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
	runRunnerImage(ctx, t, fake.ID(), runnerImage)
}

// buildImages builds Dockerfile.runner and Dockerfile from the repository root, each with its
// binaries stamped with the version "test", and returns their tags, removed when the test ends. The build stage's Go image
// is the one .ci/go-builder-image names (the official one where the engine holds it, else one
// made from this machine's toolchain), and modules come from this machine's module cache,
// served as a module proxy: no registry, no network. Both share their build stage, so the
// second build reuses the first's layers.
func buildImages(ctx context.Context, t *testing.T, root string) (fakeImage, runnerImage string) {
	t.Helper()
	goImage, err := exec.CommandContext(ctx, "bash", filepath.Join(root, ".ci", "go-builder-image")).Output()
	if err != nil {
		t.Fatalf(".ci/go-builder-image: %v", err)
	}
	modcache, err := exec.CommandContext(ctx, "go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewUnstartedServer(http.FileServer(http.Dir(filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download"))))
	// The proxy's address is a build argument, and the engine keeps a layer only while its
	// arguments stay the same: at a fixed port, the layer of compiled dependencies outlives a
	// run, and a later run compiles the module's own packages only. Taken (another checkout's
	// test at the same time), any port serves, and that build compiles everything.
	if l, err := net.Listen("tcp", proxyAddr); err == nil {
		proxy.Listener.Close()
		proxy.Listener = l
	} else {
		t.Logf("module proxy at another port than %s (%v): the build compiles every dependency", proxyAddr, err)
	}
	proxy.Start()
	defer proxy.Close()
	// Tags of this run alone: other checkouts on the machine build their own.
	tag := fmt.Sprintf("test-%d-%d", os.Getpid(), time.Now().UnixNano())
	fakeImage, runnerImage = "chatconform/fakeserver:"+tag, "chatconform/runner:"+tag
	images := []struct{ dockerfile, tag, version string }{
		{"Dockerfile.runner", runnerImage, "chatconform test: "},
		{"Dockerfile", fakeImage, "fakeserver test\n"},
	}
	build := func(args ...string) {
		cmd := exec.CommandContext(ctx, "docker", append([]string{"build", "--network", "host",
			"--build-arg", "GO_IMAGE=" + strings.TrimSpace(string(goImage)), "--build-arg", "GOPROXY=" + proxy.URL,
			"--build-arg", "VERSION=test"}, append(args, ".")...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("docker build %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	begun := time.Now()
	for _, image := range images {
		start := time.Now()
		build("-f", image.dockerfile, "-t", image.tag)
		t.Cleanup(func() { _ = exec.Command("docker", "rmi", image.tag).Run() })
		// The version the build argument gave, stamped into the binary.
		out, err := exec.CommandContext(ctx, "docker", "run", "--rm", image.tag, "-version").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), image.version) {
			t.Errorf("%s -version printed %q (%v), want it to begin %q", image.tag, out, err, image.version)
		}
		size, _ := exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{.Size}}", image.tag).Output()
		t.Logf("%s built in %s, %s bytes", image.tag, time.Since(start).Round(time.Second), strings.TrimSpace(string(size)))
	}
	// The build stage of this run under a tag (the same stage for both: every layer cached), so
	// that the prune below never takes it. Untagged, when the sources are an earlier run's, it is
	// that run's image, created before this one began; the prune took it and every layer under
	// it, the compiled dependencies' with them, and the next run compiled them again.
	build("-f", "Dockerfile", "--target", "build", "-t", buildCacheTag)
	// The build stages' images of earlier runs (each several hundred MB), not the layers this
	// run's stages still build on.
	prune := exec.CommandContext(ctx, "docker", "image", "prune", "--force",
		"--filter", "label=org.chatconform.stage=build", "--filter", fmt.Sprintf("until=%d", begun.Unix()))
	if out, err := prune.CombinedOutput(); err != nil {
		t.Errorf("docker image prune: %v\n%s", err, out)
	}
	return fakeImage, runnerImage
}

// buildCacheTag names the build stage the last image test built, and with it the layers of
// compiled dependencies the next build reuses.
const buildCacheTag = "chatconform/build-cache:latest"

// proxyAddr is where buildImages serves the module cache to the builds when it can.
const proxyAddr = "127.0.0.1:39917"

// ciUID is the user CI jobs run as on GitHub's hosted runners, which are not root.
const ciUID = 1001

// runRunnerImage runs the runner's image against the fake's container the ways a CI job does,
// as a user that is not root (uid 1001 where the test runs as root, else the test's own) in a
// directory that user owns: the README's recipe, which mounts a reports directory, and the
// image alone, as the image's own user and as the job's uid, the reports then copied out. Each
// must pass a few requirements and leave the reports where the job finds them.
func runRunnerImage(ctx context.Context, t *testing.T, fakeID, image string) {
	t.Helper()
	recipe := snippet(t, "../../README.md", "ci-image")
	if strings.Count(recipe, "chatconform/runner ") != 1 {
		t.Fatalf("the README's image recipe names chatconform/runner other than once:\n%s", recipe)
	}
	recipe = strings.Replace(recipe, "chatconform/runner ", image+" ", 1)
	// The recipe's last command is the docker run; the test narrows it to a few requirements.
	recipe = strings.TrimRight(recipe, "\n") + ` "$@"`
	alone := `docker run --name "$NAME" %s "$IMAGE" -chatconform.url "$CHAT_URL" -chatconform.owner-email "$OWNER_EMAIL" -chatconform.owner-api-key "$OWNER_API_KEY" "$@"
status=$?
docker cp "$NAME:/reports" reports && docker rm "$NAME" >/dev/null && exit $status`
	// The fake's address on the engine's network, where the runner's container reaches it.
	ip, err := exec.CommandContext(ctx, "docker", "inspect", "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", fakeID).Output()
	if err != nil {
		t.Fatalf("docker inspect: %v", err)
	}
	cases := []struct{ name, script string }{
		{"the README's recipe, reports mounted", recipe},
		{"the image's own user, no mount", fmt.Sprintf(alone, "")},
		{"the job's uid, no mount", fmt.Sprintf(alone, `--user "$(id -u):$(id -g)"`)},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, uid := jobDir(t)
			run := asJobUser(ctx, t, uid, "sh", "-c", tc.script, "sh", "-ginkgo.label-filter=req:OP06-09 || req:AUTH-05")
			run.Dir = dir
			run.Env = append(withoutSettings(os.Environ()), "HOME="+dir, "IMAGE="+image,
				fmt.Sprintf("NAME=chatconform-runner-test-%d-%d", os.Getpid(), i),
				"CHAT_URL=http://"+strings.TrimSpace(string(ip))+":9991",
				"OWNER_EMAIL=owner@chat.example.test", "OWNER_API_KEY=OwnerKey000000000000000000000001")
			out, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("as uid %d: %v\n%s", uid, err, out)
			}
			info, err := os.Stat(filepath.Join(dir, "reports", "conformance.json"))
			if err != nil {
				t.Fatalf("as uid %d: no report where the job looks: %v\n%s", uid, err, out)
			}
			if owner := info.Sys().(*syscall.Stat_t).Uid; owner != uint32(uid) {
				t.Errorf("the report belongs to uid %d, not the job's %d", owner, uid)
			}
		})
	}
}

// jobDir makes a working directory for a CI job's user and returns it with that user's uid.
func jobDir(t *testing.T) (string, int) {
	t.Helper()
	uid := os.Getuid()
	if uid == 0 {
		uid = ciUID
	}
	// Not under t.TempDir, whose parents only root may enter.
	dir, err := os.MkdirTemp("", "chatconform-ci-job")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chown(dir, uid, uid); err != nil {
		t.Fatal(err)
	}
	return dir, uid
}

// asJobUser makes a command that runs as uid (with the group of the Docker engine's socket, as
// a hosted runner's user has), or as the test itself where that is not root.
func asJobUser(ctx context.Context, t *testing.T, uid int, name string, args ...string) *exec.Cmd {
	t.Helper()
	if os.Getuid() != 0 {
		return exec.CommandContext(ctx, name, args...)
	}
	groups := []string{"--clear-groups"}
	socket := "/var/run/docker.sock"
	if host, ok := strings.CutPrefix(os.Getenv("DOCKER_HOST"), "unix://"); ok {
		socket = host
	}
	if info, err := os.Stat(socket); err == nil {
		groups = []string{"--groups", fmt.Sprint(info.Sys().(*syscall.Stat_t).Gid)}
	}
	id := fmt.Sprint(uid)
	return exec.CommandContext(ctx, "setpriv", append(append([]string{"--reuid", id, "--regid", id}, groups...), append([]string{name}, args...)...)...)
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

// jobUser is the user the fake's container runs as in the test: neither root nor the image's own.
const jobUser = "1000:1000"

// checkImage: the container reports itself healthy through the image's HEALTHCHECK (the binary
// asks itself, the image having no shell) while running as jobUser, the image names a user that
// is not root and carries the OCI labels; it logs how long it took from start to healthy and the
// image's size.
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
	user, err := exec.CommandContext(ctx, "docker", "inspect", "--format", "{{.Config.User}}|{{.Image}}", id).Output()
	if err != nil {
		t.Fatalf("docker inspect: %v", err)
	}
	running, image, _ := strings.Cut(strings.TrimSpace(string(user)), "|")
	if running != jobUser {
		t.Errorf("the container runs as %q, want %q", running, jobUser)
	}
	out, err := exec.CommandContext(ctx, "docker", "image", "inspect", "--format",
		"{{.Config.User}}|{{index .Config.Labels \"org.opencontainers.image.source\"}}|{{index .Config.Labels \"org.opencontainers.image.licenses\"}}|{{.Size}}", image).Output()
	if err != nil {
		t.Fatalf("docker image inspect: %v", err)
	}
	fields := strings.Split(strings.TrimSpace(string(out)), "|")
	if got := strings.Join(fields[:len(fields)-1], "|"); got != "65532:65532|https://github.com/chatconform/chatconform|Apache-2.0" {
		t.Errorf("the image's user and labels: %q", got)
	}
	t.Logf("image size %s bytes", fields[len(fields)-1])
}
