package container

import (
	"os"
	"strings"
	"testing"
)

// TestFinalStage: container.Run builds the image from the Dockerfile's last stage, with the
// fake's files from the build context; a Dockerfile whose last stage does not take them from
// the build stage is refused rather than built into an image without the fake.
func TestFinalStage(t *testing.T) {
	dockerfile, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	stage, err := finalStage(dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	got := string(stage)
	if !strings.HasPrefix(got, "FROM scratch\n") || strings.Count(got, "FROM ") != 1 ||
		!strings.Contains(got, "\nCOPY fakeserver/ /\n") || strings.Contains(got, "--from=build") {
		t.Errorf("final stage of the Dockerfile:\n%s", got)
	}
	for name, bad := range map[string]string{
		"no copy from the build stage": "FROM golang AS build\nRUN go build\nFROM scratch\nCOPY fakeserver /fakeserver\n",
		"the copy in the build stage":  "FROM golang AS build\nCOPY --from=build /out/fakeserver/ /\nFROM scratch\n",
		"a single stage":               "COPY --from=build /out/fakeserver/ /\n",
	} {
		if _, err := finalStage([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestBuildStagesAgree: Dockerfile and Dockerfile.runner share their build stage word for word,
// so that building the second image reuses every layer of the first instead of compiling again.
func TestBuildStagesAgree(t *testing.T) {
	var stages []string
	for _, name := range []string{"../../Dockerfile", "../../Dockerfile.runner"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		begin, end := strings.Index(text, "\nARG GO_IMAGE="), strings.LastIndex(text, "\nFROM ")
		if begin < 0 || end < begin {
			t.Fatalf("%s has no build stage before its last FROM", name)
		}
		stages = append(stages, text[begin:end])
	}
	if stages[0] != stages[1] {
		t.Errorf("the build stages differ:\nDockerfile:%s\nDockerfile.runner:%s", stages[0], stages[1])
	}
}
