package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/scan"
)

// noCommand fails when a line of out starts a workflow command, which the
// Actions runner would obey on standard error as on standard output.
func noCommand(t *testing.T, what, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") {
			t.Errorf("%s: a line is a workflow command: %q\nin\n%s", what, l, out)
		}
	}
}

// TestStderrInjection: a configuration key and a file name from the
// repository that carry a line break and a workflow command reach
// standard error escaped, on the line of the message that quotes them.
func TestStderrInjection(t *testing.T) {
	dir := tree(t, map[string]string{".holdfast.yaml": "\"\\n::add-mask::x\": 1\n"})
	_, errs := expect(t, 2, "scan")
	noCommand(t, "unknown key", errs)
	if !strings.Contains(errs, `\n::add-mask::x`) {
		t.Errorf("the key is not shown escaped: %s", errs)
	}
	if err := os.Remove(filepath.Join(dir, ".holdfast.yaml")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "a\n::add-mask::x\n.cc"), "\x00binary")
	writeFile(t, filepath.Join(dir, "ok.cc"), clean)
	_, errs = expect(t, 0, "baseline", "-o", "b.json")
	noCommand(t, "baseline notices", errs)
	if !strings.Contains(errs, `a\n::add-mask::x\n.cc: warning:`) {
		t.Errorf("the file name is not shown escaped: %s", errs)
	}
	out, _ := expect(t, 3, "scan", "--format", "text")
	noCommand(t, "text notices", out)
	if !strings.Contains(out, `a\n::add-mask::x\n.cc: warning:`) {
		t.Errorf("text: a line break in a file name does not show: %s", out)
	}
}

// TestInterrupt: the first Ctrl-C ends the command with status 130 even
// while the scan is stuck in a file, and hands Ctrl-C back to its default
// (stop is called) so that a second one kills the process.
func TestInterrupt(t *testing.T) {
	tree(t, map[string]string{"ok.cc": clean})
	for _, cmd := range []string{"scan", "baseline"} {
		ctx, cancel := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		release := make(chan struct{})
		var errb bytes.Buffer
		e := &env{
			stdout: &bytes.Buffer{}, stderr: &errb,
			interrupt: func(parent context.Context) (context.Context, context.CancelFunc) {
				return ctx, func() {
					select {
					case <-stopped:
					default:
						close(stopped)
					}
				}
			},
			scan: func(context.Context, scan.Options) (*scan.Result, error) {
				cancel() // Ctrl-C arrives while the scan is stuck, ignoring it
				<-release
				return &scan.Result{}, nil
			},
		}
		args := []string{cmd}
		if cmd == "baseline" {
			args = append(args, "-o", "b.json")
		}
		done := make(chan int, 1)
		go func() { done <- runEnv(args, e) }()
		select {
		case code := <-done:
			if code != 130 {
				t.Errorf("%s: exit %d, want 130; stderr %s", cmd, code, errb.String())
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: did not stop on Ctrl-C", cmd)
		}
		select {
		case <-stopped:
		default:
			t.Errorf("%s: the signal handler was not released", cmd)
		}
		close(release)
	}
}

// TestInvalidLimitsAndEmptyScans: negative limits are usage errors, as in
// the configuration; a scan that finds nothing to analyse (everything
// excluded) says so in a note and exits 0; a FIFO named on the command
// line is source that could not be read: exit 3.
func TestInvalidLimitsAndEmptyScans(t *testing.T) {
	dir := tree(t, map[string]string{"ok.cc": clean})
	for _, args := range [][]string{
		{"scan", "-j", "-1"},
		{"scan", "--max-file-size", "-1"},
		{"baseline", "-o", "-", "-j", "-1"},
		{"baseline", "-o", "-", "--max-file-size", "-1"},
		{"scan", "--file-budget", "-1s"},
	} {
		expect(t, 2, args...)
	}
	out, _ := expect(t, 0, "scan", "--exclude", "**")
	if !strings.Contains(out, "no source files") {
		t.Errorf("--exclude '**': %s", out)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.cc"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = expect(t, 3, "scan", "pipe.cc")
	if !strings.Contains(out, "pipe.cc: warning: skipped: not a regular file") {
		t.Errorf("FIFO on the command line: %s", out)
	}
	expect(t, 0, "scan", "ok.cc")
	// A file named and excluded (pre-commit passes staged files) was
	// excluded on purpose: no warning.
	if out, _ := expect(t, 0, "scan", "--exclude", "*.cc", "ok.cc"); out != "" {
		t.Errorf("named and excluded: %s", out)
	}
}

// TestCtrlCSignals sends real SIGINTs to a child process (this test binary)
// whose scan is stuck: the first makes the command return 130, and since
// the handler is then released, the second kills the child outright even
// though it has not exited.
func TestCtrlCSignals(t *testing.T) {
	if os.Getenv("HOLDFAST_CTRLC_CHILD") == "1" {
		e := defaultEnv(io.Discard, io.Discard)
		e.scan = func(context.Context, scan.Options) (*scan.Result, error) {
			fmt.Println("scanning")
			select {}
		}
		fmt.Println("exited", runEnv([]string{"scan"}, e))
		time.Sleep(time.Hour) // a slow shutdown only a second Ctrl-C ends
		return
	}
	tree(t, map[string]string{"ok.cc": clean})
	cmd := exec.Command(os.Args[0], "-test.run=^TestCtrlCSignals$")
	cmd.Env = append(os.Environ(), "HOLDFAST_CTRLC_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(want string) {
		t.Helper()
		select {
		case l := <-lines:
			if l != want {
				t.Fatalf("child said %q, want %q", l, want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("child did not say %q", want)
		}
	}
	next("scanning")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	next("exited 130")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	werr := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(werr, &ee) {
		t.Fatalf("child: %v", werr)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("the second Ctrl-C did not kill the child: %v", werr)
	}
}

// TestFileBudgetFlag: --file-budget is the per-file work budget the scan
// keeps: a budget no file can meet gives the budget's warning, in the
// same words on any machine; a generous one finds the bug; a duration is
// refused with a pointer to --file-timeout, the wall-clock limit, whose
// warning says the result depends on the machine. docs/untrusted.md
// names both flags and their defaults.
func TestFileBudgetFlag(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "untrusted.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{
		fmt.Sprintf("work budget (`--file-budget`, default %dM units)", scan.DefaultFileBudget/1_000_000),
		fmt.Sprintf("wall-clock limit (`--file-timeout`, default %d s)", int(scan.DefaultFileTimeout.Seconds())),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/untrusted.md does not say %q", want)
		}
	}
	tree(t, map[string]string{"send.cc": buggy(t)})
	out, _ := expect(t, 3, "scan", "--file-budget", "1")
	if !strings.Contains(out, "send.cc: warning: analysis cut short by the work budget of 1 units (--file-budget): findings may be missing") {
		t.Errorf("--file-budget 1:\n%s", out)
	}
	out, _ = expect(t, 1, "scan", "--file-budget", "1G")
	if !strings.Contains(out, "send.cc:50:24: error:") {
		t.Errorf("--file-budget 1G:\n%s", out)
	}
	_, errOut := expect(t, 2, "scan", "--file-budget", "20s")
	if !strings.Contains(errOut, "--file-timeout takes a duration") {
		t.Errorf("--file-budget 20s:\n%s", errOut)
	}
	out, _ = expect(t, 3, "scan", "--file-timeout", "1ns")
	// Whether the limit stops the parse (skipped) or the rules (cut
	// short) depends on the machine; either way the warning says so.
	if !regexp.MustCompile(`send\.cc: warning: .*wall-clock limit of 1ns \(--file-timeout; the result depends on the machine\)`).MatchString(out) {
		t.Errorf("--file-timeout 1ns:\n%s", out)
	}
}
