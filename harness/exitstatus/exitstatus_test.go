package exitstatus

import (
	"os/exec"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		script string
		code   int
		fails  bool
	}{
		{"exit 0", 0, false},
		{"exit 3", 3, false},
		{"kill -KILL $$", -1, true},
	} {
		code, err := Of(exec.Command("sh", "-c", tc.script).Run())
		if code != tc.code || (err != nil) != tc.fails {
			t.Errorf("%s: %d, %v; want %d, failing %v", tc.script, code, err, tc.code, tc.fails)
		}
	}
	if _, err := Of(exec.Command("/no/such/program").Run()); err == nil {
		t.Error("a program that did not start has an exit status")
	}
}
