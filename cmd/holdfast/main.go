// Command holdfast finds buffer-lifetime bugs in the C++ and Objective-C++
// of ML accelerator backends and confirms each finding by replaying it on a
// simulated device.
//
// Exit status: 0 when nothing at or above --fail-on was found, 1 when
// something was, 2 on a usage or internal error, 3 when nothing failed but
// some source could not be analysed.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/holdfast-dev/holdfast/internal/esc"
	"github.com/holdfast-dev/holdfast/scan"
)

// exitError carries an exit status through cobra. The error is printed as
// one escaped line (it may quote a file name or a configuration key from
// the scanned tree); hint, ours, follows it on a line of its own.
type exitError struct {
	code int
	err  error
	hint string
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func main() {
	setMemoryLimit()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// env is what commands take from the process. Tests replace parts of it.
type env struct {
	stdout, stderr io.Writer
	// interrupt returns a context that the first Ctrl-C cancels; after
	// stop, Ctrl-C has its default effect again.
	interrupt func(context.Context) (ctx context.Context, stop context.CancelFunc)
	// scan runs a scan (scan.Run).
	scan func(context.Context, scan.Options) (*scan.Result, error)
}

func defaultEnv(stdout, stderr io.Writer) *env {
	return &env{
		stdout: stdout,
		stderr: stderr,
		interrupt: func(ctx context.Context) (context.Context, context.CancelFunc) {
			return signal.NotifyContext(ctx, os.Interrupt)
		},
		scan: scan.Run,
	}
}

// run executes the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runEnv(args, defaultEnv(stdout, stderr))
}

func runEnv(args []string, e *env) int {
	cmd, finish := newRoot(e)
	cmd.SetArgs(args)
	err := cmd.Execute()
	finish()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			_, _ = fmt.Fprintln(e.stderr, "holdfast:", esc.Name(ee.err.Error()))
		}
		if ee.hint != "" {
			_, _ = fmt.Fprintln(e.stderr, ee.hint)
		}
		return ee.code
	}
	// A usage error of the command line (cobra's: an unknown command or
	// flag, with its suggestions) is the tool's own text over several
	// lines: each line is escaped, the layout kept.
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		lines[i] = esc.Name(strings.ReplaceAll(l, "\t", "    "))
	}
	_, _ = fmt.Fprintln(e.stderr, "holdfast:", strings.Join(lines, "\n"))
	return 2
}
