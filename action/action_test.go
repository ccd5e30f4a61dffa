// Package action_test checks what only GitHub runs: it runs the GitHub Action's step script
// (run.sh) the way a workflow does, with GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files of its
// own, against the fake server binary, and reads the repository's workflows.
package action_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness/exitstatus"
)

// TestStepsInterpolateNoInput: no step's script holds a ${{ … }} expression; inputs reach the
// script through env: only, so a value is never run as shell code.
func TestStepsInterpolateNoInput(t *testing.T) {
	var action struct {
		Outputs map[string]struct{ Value string }
		Runs    struct {
			Steps []struct {
				ID  string
				Run string
				Env map[string]string
			}
		}
	}
	readYAML(t, "../action.yml", &action)
	scripts := 0
	for _, s := range action.Runs.Steps {
		if s.Run == "" {
			continue
		}
		scripts++
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q interpolates into its script: %s", s.ID, s.Run)
		}
	}
	if scripts == 0 {
		t.Error("no step runs a script")
	}
	for _, name := range []string{"exit-code", "report-dir"} {
		if !strings.Contains(action.Outputs[name].Value, "steps.run.outputs."+name) {
			t.Errorf("output %s = %q, want the run step's", name, action.Outputs[name].Value)
		}
	}
}

// workflowStep is a step of a workflow's job.
type workflowStep struct {
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

// workflow is what the tests read of a GitHub workflow: its triggers and its jobs.
type workflow struct {
	// On holds each trigger by its event; a trigger written without settings is nil.
	On map[string]*struct {
		Tags []string `yaml:"tags"`
	} `yaml:"on"`
	Jobs map[string]struct {
		Needs    string `yaml:"needs"`
		Strategy struct {
			Matrix struct {
				Include []map[string]string `yaml:"include"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []workflowStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestCIWorkflow: on every push and pull request, the CI workflow runs .ci/run, what a
// release is gated on.
func TestCIWorkflow(t *testing.T) {
	var ci workflow
	readYAML(t, "../.github/workflows/ci.yml", &ci)
	push, onPush := ci.On["push"]
	if _, onPR := ci.On["pull_request"]; !onPush || (push != nil && len(push.Tags) > 0) || !onPR {
		t.Errorf("ci.yml must run on every push and pull request: %+v", ci.On)
	}
	runs := false
	for _, job := range ci.Jobs {
		runs = runs || slices.ContainsFunc(job.Steps, func(s workflowStep) bool { return s.Run == "bash .ci/run" })
	}
	if !runs {
		t.Errorf("no job of ci.yml runs bash .ci/run: %+v", ci.Jobs)
	}
}

// TestReleaseWorkflow: the release workflow, which only GitHub runs, is valid YAML that on a
// version tag builds every image's Dockerfile of the repository, stamps the tag as the
// version and pushes the result.
func TestReleaseWorkflow(t *testing.T) {
	var release workflow
	readYAML(t, "../.github/workflows/release.yml", &release)
	if push := release.On["push"]; push == nil || !slices.Equal(push.Tags, []string{"v*"}) {
		t.Errorf("release.yml must run on tags [v*]: %+v", push)
	}
	images, ok := release.Jobs["images"]
	if !ok || images.Needs != "check" {
		t.Fatalf("release.yml has no images job after the check job: %+v", release.Jobs)
	}
	var built []string
	for _, include := range images.Strategy.Matrix.Include {
		built = append(built, include["dockerfile"])
	}
	dockerfiles, _ := filepath.Glob("../Dockerfile*")
	if len(dockerfiles) == 0 {
		t.Fatal("the repository has no Dockerfile")
	}
	for _, path := range dockerfiles {
		if name := filepath.Base(path); !slices.Contains(built, name) {
			t.Errorf("release.yml does not build %s (it builds %v)", name, built)
		}
	}
	i := slices.IndexFunc(images.Steps, func(s workflowStep) bool { return strings.HasPrefix(s.Uses, "docker/build-push-action@") })
	if i < 0 {
		t.Fatal("release.yml's images job has no docker/build-push-action step")
	}
	with := images.Steps[i].With
	if with["file"] != "${{ matrix.dockerfile }}" || with["build-args"] != "VERSION=${{ github.ref_name }}" || with["push"] != "true" {
		t.Errorf("release.yml's build step: %v; want the matrix's Dockerfile, VERSION from the tag, pushed", with)
	}
}

// readYAML decodes the YAML file at path into v.
func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestActionScript: the step builds the runner (its version stamped) and passes its exit status
// through, 2 and 3 included, with the report directory as an output and a Markdown summary; an
// args value with shell metacharacters reaches the runner as text and is never executed.
func TestActionScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runner and the fake and runs the suite")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, root)
	owner, _ := fixtures.Default().UserByRole(fixtures.RoleOwner)
	version, err := exec.Command("git", "-C", root, "describe", "--tags", "--always", "--dirty").Output()
	if err != nil {
		t.Fatalf("git describe: %v", err)
	}
	marker := filepath.Join(t.TempDir(), "executed")
	target := map[string]string{"INPUT_URL": url, "INPUT_OWNER_EMAIL": owner.Email, "INPUT_OWNER_API_KEY": owner.APIKey}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range []map[string]string{target, extra} {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}

	names := map[string]bool{}
	for _, tc := range []struct {
		name    string
		inputs  map[string]string
		code    int
		summary []string
		report  bool
	}{
		// One flag per line: the label filter's spaces stay inside its value.
		{"a passing target", with(map[string]string{"INPUT_ARGS": "--ginkgo.label-filter=req:OP06-09 || req:OP06-01\n  --fail-fast\n"}), 0,
			[]string{"## chatconform: conformant", "| Part of the document | Passed |", "Exit status 0 (conformant)."}, true},
		{"invalid settings", with(map[string]string{"INPUT_FEATURES": "teleport"}), 2,
			[]string{"## chatconform: invalid settings", "Exit status 2", `invalid CHATCONFORM_FEATURES "teleport": unknown feature "teleport"`}, false},
		{"an unreachable target", with(map[string]string{"INPUT_URL": "http://127.0.0.1:9"}), 3,
			[]string{"## chatconform: the run could not be set up", "Exit status 3", "cannot set up the target: http://127.0.0.1:9: reading GET /server_settings"}, false},
		// A flag and its value on one line, as a workflow writes them.
		{"a flag and its value on one line", with(map[string]string{"INPUT_ARGS": "--only-operations 12\n--fail-fast\n"}), 0,
			[]string{"## chatconform: conformant", "Exit status 0 (conformant)."}, true},
		{"shell metacharacters in args", with(map[string]string{"INPUT_ARGS": "--ginkgo.label-filter=req:OP06-09 $(touch " + marker + ") `touch " + marker + "`;touch " + marker + " | touch " + marker}), 2,
			[]string{"Exit status 2", `unexpected argument "$(touch`}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			outputFile, summaryFile := filepath.Join(dir, "output"), filepath.Join(dir, "summary.md")
			cmd := exec.Command("bash", filepath.Join(root, "action", "run.sh"))
			cmd.Dir = dir
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "CHATCONFORM_") && !strings.HasPrefix(kv, "GITHUB_") && !strings.HasPrefix(kv, "INPUT_") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, "GITHUB_OUTPUT="+outputFile, "GITHUB_STEP_SUMMARY="+summaryFile,
				"RUNNER_TEMP="+dir, "GITHUB_ACTION_PATH="+root)
			for k, v := range tc.inputs {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			out, err := cmd.CombinedOutput()
			code, err := exitstatus.Of(err)
			if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Fatalf("the step exited %d, want %d:\n%.3000s", code, tc.code, out)
			}
			outputs := readOutputs(t, outputFile)
			// Each job of a matrix with other inputs uploads under a name of its own.
			name := outputs["artifact-name"]
			if !regexp.MustCompile(`^chatconform-reports-job-[0-9a-f]{8}$`).MatchString(name) || names[name] {
				t.Errorf("artifact name %q: want chatconform-reports-<job>-<digest>, one per inputs (seen %v)", name, names)
			}
			names[name] = true
			reports := filepath.Join(dir, "chatconform-reports")
			if outputs["exit-code"] != string(rune('0'+tc.code)) || outputs["report-dir"] != reports {
				t.Errorf("outputs %q, want exit-code %d and report-dir %s", outputs, tc.code, reports)
			}
			summary, _ := os.ReadFile(summaryFile)
			for _, want := range tc.summary {
				if !strings.Contains(string(summary), want) {
					t.Errorf("the job summary lacks %q:\n%s", want, summary)
				}
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("a shell command in the args input was executed")
			}
			data, err := os.ReadFile(filepath.Join(reports, "conformance.json"))
			if tc.report != (err == nil) {
				t.Fatalf("report written: %v, want %v", err == nil, tc.report)
			}
			if tc.report {
				var r struct {
					Suite struct {
						HarnessVersion string `json:"harness_version"`
					} `json:"suite"`
				}
				if err := json.Unmarshal(data, &r); err != nil {
					t.Fatal(err)
				}
				if want := strings.TrimSpace(string(version)); r.Suite.HarnessVersion != want {
					t.Errorf("harness_version %q, want the stamped %q", r.Suite.HarnessVersion, want)
				}
			}
		})
	}
}

// readOutputs parses a GITHUB_OUTPUT file: name=value lines and name<<DELIMITER blocks.
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no GITHUB_OUTPUT: %v", err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delimiter, ok := strings.Cut(line, "<<"); ok {
			var value []string
			for sc.Scan() && sc.Text() != delimiter {
				value = append(value, sc.Text())
			}
			out[name] = strings.Join(value, "\n")
		} else if name, value, ok := strings.Cut(line, "="); ok {
			out[name] = value
		}
	}
	return out
}

// startFake builds and starts the fake server binary on a free loopback port, and returns its URL.
func startFake(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fakeserver")
	build := exec.Command("go", "build", "-o", bin, "./cmd/fakeserver")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the fake: %v\n%s", err, out)
	}
	log := filepath.Join(t.TempDir(), "fake.log")
	logFile, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	fake := exec.Command(bin, "-addr", "127.0.0.1:0", "-quiet")
	fake.Stdout, fake.Stderr = logFile, logFile
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fake.Process.Kill(); _ = fake.Wait(); logFile.Close() })
	banner := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)
	// Until a little before the test binary's deadline: a busy machine starts it late, not never.
	wait := 10 * time.Minute
	if d, ok := t.Deadline(); ok {
		wait = time.Until(d) * 9 / 10
	}
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		data, _ := os.ReadFile(log)
		if url := banner.Find(data); url != nil {
			return string(url)
		}
	}
	data, _ := os.ReadFile(log)
	t.Fatalf("the fake did not start:\n%s", data)
	return ""
}
