// Command holdfast finds buffer-lifetime bugs in the C++ and Objective-C++
// of ML accelerator backends and confirms each finding by replaying it on a
// simulated device.
//
// Exit status: 0 when nothing at or above --fail-on was found, 1 when
// something was, 2 on a usage or internal error, 3 when nothing failed but
// some source could not be analysed.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// exitError carries an exit status through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd, finish := newRoot(stdout, stderr)
	cmd.SetArgs(args)
	err := cmd.Execute()
	finish()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			_, _ = fmt.Fprintln(stderr, "holdfast:", ee.err)
		}
		return ee.code
	}
	_, _ = fmt.Fprintln(stderr, "holdfast:", err)
	return 2
}
