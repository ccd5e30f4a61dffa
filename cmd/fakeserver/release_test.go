package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestReleaseWorkflow: the release workflow, which only GitHub runs, is valid YAML that on a
// version tag builds every image's Dockerfile of the repository, stamps the tag as the
// version and pushes the result.
func TestReleaseWorkflow(t *testing.T) {
	data, err := os.ReadFile("../../.github/workflows/release.yml")
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		Uses string            `yaml:"uses"`
		With map[string]string `yaml:"with"`
	}
	var workflow struct {
		On struct {
			Push struct {
				Tags []string `yaml:"tags"`
			} `yaml:"push"`
		} `yaml:"on"`
		Jobs map[string]struct {
			Needs    string `yaml:"needs"`
			Strategy struct {
				Matrix struct {
					Include []map[string]string `yaml:"include"`
				} `yaml:"matrix"`
			} `yaml:"strategy"`
			Steps []step `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &workflow); err != nil {
		t.Fatalf("release.yml: %v", err)
	}
	if !slices.Equal(workflow.On.Push.Tags, []string{"v*"}) {
		t.Errorf("release.yml runs on tags %v, want [v*]", workflow.On.Push.Tags)
	}
	images, ok := workflow.Jobs["images"]
	if !ok || images.Needs != "check" {
		t.Fatalf("release.yml has no images job after the check job: %+v", workflow.Jobs)
	}
	var built []string
	for _, include := range images.Strategy.Matrix.Include {
		built = append(built, include["dockerfile"])
	}
	dockerfiles, _ := filepath.Glob("../../Dockerfile*")
	for _, path := range dockerfiles {
		if name := filepath.Base(path); !slices.Contains(built, name) {
			t.Errorf("release.yml does not build %s (it builds %v)", name, built)
		}
	}
	i := slices.IndexFunc(images.Steps, func(s step) bool { return strings.HasPrefix(s.Uses, "docker/build-push-action@") })
	if i < 0 {
		t.Fatal("release.yml's images job has no docker/build-push-action step")
	}
	with := images.Steps[i].With
	if with["file"] != "${{ matrix.dockerfile }}" || with["build-args"] != "VERSION=${{ github.ref_name }}" || with["push"] != "true" {
		t.Errorf("release.yml's build step: %v; want the matrix's Dockerfile, VERSION from the tag, pushed", with)
	}
}
