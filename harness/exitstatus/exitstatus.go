// Package exitstatus reads the exit status of a command the tests ran: the runner's statuses
// (0 to 3) are its interface, so tests compare them, not just success.
package exitstatus

import (
	"errors"
	"os/exec"
)

// Of returns the exit status that err, from exec.Cmd's Run, Output or CombinedOutput, reports:
// 0 for nil, the process's status for an *exec.ExitError, and err itself when the command did
// not run to an exit (not found, killed by a signal).
func Of(err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.Exited() {
		return exit.ExitCode(), nil
	}
	return -1, err
}
