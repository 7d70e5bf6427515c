package scan

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/config"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/discover"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

// buggy is a file every run must still analyse, whatever sits beside it.
const buggy = `void Send(Pool& pool, int n) {
  std::vector<float*> raw;
  for (int i = 0; i < n; ++i) {
    std::unique_ptr<Block> b = pool.Take();
    raw.push_back(b.get());
  }
  Transmit(raw);
}
`

func write(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func runDir(t *testing.T, dir string, opt Options) *Result {
	t.Helper()
	opt.Paths = []string{dir}
	opt.Root = dir
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func findingIn(res *Result, file string) bool {
	for _, f := range res.Findings {
		if f.At.Start.File == file {
			return true
		}
	}
	return false
}

func noticeFor(res *Result, file, substr string) bool {
	for _, n := range res.Notices {
		if n.File == file && strings.Contains(n.Message, substr) {
			return true
		}
	}
	return false
}

// TestHostileInputs scans a tree of hostile files next to a buggy one: the
// scan neither crashes nor hangs, says what it skipped, and still reports
// the bug.
func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "buggy.cc", []byte(buggy))
	const depth = 100000
	write(t, dir, "braces.cc", []byte("void f() {"+strings.Repeat("{", depth)+strings.Repeat("}", depth)+"}"))
	write(t, dir, "parens.cc", []byte("int x = "+strings.Repeat("(", depth)+"1"+strings.Repeat(")", depth)+";"))
	write(t, dir, "lambdas.cc", []byte("auto f = "+strings.Repeat("[&]{ return ", depth/10)+"0"+strings.Repeat("; }", depth/10)+";"))
	write(t, dir, "guards.cc", []byte("void f() {"+strings.Repeat(" guard { x; ", depth/10)+strings.Repeat("}; ", depth/10)+"}"))
	write(t, dir, "binary.h", append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00"), bytes.Repeat([]byte{0, 1, 2, 0xff}, 4096)...))
	write(t, dir, "invalid_utf8.cc", []byte("void f() { const char* s = \"\xff\xfe\xc0\"; int \xe2\x82 x; }\n"+buggy))
	write(t, dir, "crlf.cc", []byte(strings.ReplaceAll(buggy, "\n", "\r\n")))
	write(t, dir, "cr.cc", []byte(strings.ReplaceAll(buggy, "\n", "\r")))
	write(t, dir, "unterminated_string.cc", []byte("void f() { const char* s = \"never ends\n"))
	write(t, dir, "unterminated_comment.cc", []byte("void f() { /* never ends\n int x;"))
	write(t, dir, "unterminated_raw.cc", []byte("auto s = R\"x(never ends\n)\";\n"))
	write(t, dir, "macro_soup.cc", []byte(strings.Repeat("#define X(a) a##a ( ) ) ]] {{ TF_ASSIGN_OR_RETURN(, ASSIGN_OR_RETURN(auto x,\nX(X(X( ;;; @@ \\\n", 2000)))
	write(t, dir, "empty.cc", nil)
	write(t, dir, "long_line.cc", []byte(strings.Repeat("int a = 1; ", 300000)))
	write(t, dir, "objc.mm", []byte("@interface X : NSObject { int a; } @end @implementation X - (void)f:(int)a { [self g:^{ [[x y] z]; }]; } @end [[[[ ^^^ @\"\n"))
	if err := os.Symlink(dir, filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "missing.cc"), filepath.Join(dir, "dangling.cc")); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("int x;\n"), (DefaultMaxFileSize/7)+10)
	write(t, dir, "huge.cc", big)

	done := make(chan *Result)
	go func() { done <- runDir(t, dir, Options{Jobs: 2}) }()
	var res *Result
	select {
	case res = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("scan did not finish")
	}
	for _, file := range []string{"buggy.cc", "invalid_utf8.cc", "crlf.cc"} {
		if !findingIn(res, file) {
			t.Errorf("%s: the bug was not reported", file)
		}
	}
	if !noticeFor(res, "binary.h", "binary") {
		t.Errorf("binary.h: no notice; notices: %+v", res.Notices)
	}
	if !noticeFor(res, "huge.cc", "") {
		t.Errorf("huge.cc: no notice for the size cap; notices: %+v", res.Notices)
	}
	if !noticeFor(res, "loop", "") {
		t.Errorf("loop: no notice for the directory symlink; notices: %+v", res.Notices)
	}
	if res.Skipped == 0 {
		t.Error("Skipped is 0 though files were skipped")
	}
	// Positions on CR-only and CRLF files are still lines of the file.
	for _, f := range res.Findings {
		if f.At.Start.File == "cr.cc" || f.At.Start.File == "crlf.cc" {
			if f.At.Start.Line != 7 {
				t.Errorf("%s: finding on line %d, want 7", f.At.Start.File, f.At.Start.Line)
			}
		}
	}
}

// TestDeterministicAcrossJobs scans the same tree with 1 to 8 workers and
// requires the same findings in the same order.
func TestDeterministicAcrossJobs(t *testing.T) {
	dir := t.TempDir()
	for i := range 12 {
		write(t, dir, filepath.Join("d", string(rune('a'+i))+".cc"), []byte(buggy+strings.Repeat("\n", i)+buggy))
	}
	var first string
	for _, jobs := range []int{1, 2, 3, 8} {
		res := runDir(t, dir, Options{Jobs: jobs})
		var b strings.Builder
		for _, f := range res.Findings {
			b.WriteString(f.At.Start.File + ":" + f.Message + ":" + f.Fingerprint() + "\n")
		}
		if jobs == 1 {
			first = b.String()
			if strings.Count(first, "\n") != 24 {
				t.Fatalf("expected 24 findings, got:\n%s", first)
			}
			continue
		}
		if b.String() != first {
			t.Errorf("-j %d differs from -j 1:\n%s\nvs\n%s", jobs, b.String(), first)
		}
	}
}

func TestParseTimeoutIsReported(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "slow.cc", []byte(strings.Repeat("void f() { int x = a(b(c(d))) + g<h<i>>(j); }\n", 100000)))
	write(t, dir, "buggy.cc", []byte(buggy))
	res := runDir(t, dir, Options{FileTimeout: 50 * time.Millisecond})
	if !noticeFor(res, "slow.cc", "parse stopped by the wall-clock limit of 50ms (--file-timeout") {
		t.Errorf("no timeout notice: %+v", res.Notices)
	}
	if !findingIn(res, "buggy.cc") {
		t.Error("the scan did not go on after the timeout")
	}
}

func TestVerifyIsCalledPerFinding(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "buggy.cc", []byte(buggy))
	var mu sync.Mutex
	calls := 0
	res := runDir(t, dir, Options{Verify: func(f *diag.Finding) *diag.Verification {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return &diag.Verification{Verdict: diag.NotModelled}
	}})
	if calls != len(res.Findings) || calls == 0 {
		t.Errorf("verify called %d times for %d findings", calls, len(res.Findings))
	}
}

// within runs f, failing the test instead of hanging it when f never
// returns. The minute is a guard against hanging, not a speed assertion.
func within[T any](t *testing.T, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(time.Minute):
		t.Fatal("did not return")
		var zero T
		return zero
	}
}

// TestReadsAreBounded: what discovery saw is not what analysis reads. A
// file that grew past the cap (as files under /proc do, claiming size 0)
// is refused after reading no more than the cap, and a file swapped for a
// FIFO is refused instead of blocking the read forever.
func TestReadsAreBounded(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "grown.cc", []byte(strings.Repeat("int x;\n", 100)))
	fifo := filepath.Join(dir, "swapped.cc")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var mu sync.Mutex
	lim := limits{maxSize: 64, timeout: time.Minute, units: DefaultFileBudget}
	for _, tc := range []struct{ name, want string }{
		{"grown.cc", "exceeds the limit of 64 bytes"},
		{"swapped.cc", "not a regular file"},
	} {
		f := discover.File{Path: filepath.Join(dir, tc.name), Rel: tc.name, Ext: ".cc", Size: 10}
		out := within(t, func() fileResult { return prepare(context.Background(), p, m, f, Options{}, lim, &mu).out })
		if out.notice == nil || !strings.Contains(out.notice.Message, tc.want) {
			t.Errorf("%s: notice %+v, want one saying %q", tc.name, out.notice, tc.want)
		}
	}
	// A committed link to /proc/self/pagemap passes discovery's size check
	// (stat says 0 bytes) and is refused when read.
	if _, err := os.Stat("/proc/self/pagemap"); err == nil {
		dir := t.TempDir()
		if err := os.Symlink("/proc/self/pagemap", filepath.Join(dir, "pm.cc")); err != nil {
			t.Fatal(err)
		}
		res := within(t, func() *Result { return runDir(t, dir, Options{MaxFileSize: 1 << 16}) })
		if !noticeFor(res, "pm.cc", "") || res.Skipped != 1 {
			t.Errorf("pm.cc: want one warning; notices %+v", res.Notices)
		}
	}
}

// TestAnalysisBudget: the model, the rules and the replay run under the
// file's time budget, not only the parse. A stage that never ends (here
// the model callback) costs the file, with a warning, not the scan.
func TestAnalysisBudget(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "stuck.cc", []byte(buggy))
	release := make(chan struct{})
	defer close(release)
	opt := Options{FileTimeout: time.Second, Jobs: 1, Funcs: func(f *parser.File, _ []*lifetime.Func) {
		<-release
	}}
	res := within(t, func() *Result { return runDir(t, dir, opt) })
	if !noticeFor(res, "stuck.cc", "analysis stopped by the wall-clock limit of 1s (--file-timeout; the result depends on the machine), file skipped") || res.Skipped != 1 {
		t.Errorf("no budget warning: %+v", res.Notices)
	}
}

// TestInterruptDoesNotWaitForAFile: cancelling the context ends the scan
// while a file is still being analysed.
func TestInterruptDoesNotWaitForAFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "stuck.cc", []byte(buggy))
	release := make(chan struct{})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	opt := Options{Paths: []string{dir}, Root: dir, Jobs: 1, Funcs: func(*parser.File, []*lifetime.Func) {
		cancel()
		<-release
	}}
	err := within(t, func() error { _, err := Run(ctx, opt); return err })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
}

// TestTruncatedCodeIsReported: code nested past the model's depth bound
// used to vanish without a word; now it is a warning (so exit status 3)
// and the rest of the file is still analysed.
func TestTruncatedCodeIsReported(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "deep.cc", []byte(buggy+"void g() {"+strings.Repeat("if (x) { ", 3000)+strings.Repeat("}", 3000)+"}\n"))
	res := runDir(t, dir, Options{})
	if !noticeFor(res, "deep.cc", "nested too deeply") || res.Skipped != 1 {
		t.Errorf("no warning for the truncated function: %+v", res.Notices)
	}
	if !findingIn(res, "deep.cc") {
		t.Error("the rest of the file was not analysed")
	}
}

// TestLineEndingsAndBOM: a CR-only file whose first line is a // comment
// is analysed (the grammar read the whole file as that comment), and a
// byte order mark does not shift the columns of line 1.
func TestLineEndingsAndBOM(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "cr.cc", []byte(strings.ReplaceAll("// header\n"+buggy, "\n", "\r")))
	bomBuggy := "void Send(Pool& pool) { std::vector<float*> raw; { std::unique_ptr<Block> b = pool.Take(); raw.push_back(b.get()); } Transmit(raw); }\n"
	write(t, dir, "bom.cc", []byte("\xef\xbb\xbf"+bomBuggy))
	write(t, dir, "plain.cc", []byte(bomBuggy))
	res := runDir(t, dir, Options{})
	var cr, bom, plain []diag.Pos
	for _, f := range res.Findings {
		switch f.At.Start.File {
		case "cr.cc":
			cr = append(cr, f.At.Start)
		case "bom.cc":
			bom = append(bom, f.At.Start)
		case "plain.cc":
			plain = append(plain, f.At.Start)
		}
	}
	if len(cr) == 0 || cr[0].Line != 8 {
		t.Errorf("cr.cc: findings at %+v, want one on line 8", cr)
	}
	// In a CR-only file a directive covers the line below it, and the
	// source kept for snippets has that line as its eighth.
	lines := strings.Split("// header\n"+buggy, "\n")
	lines[6] += " // holdfast:ignore HF-B001 the pool outlives the send"
	write(t, dir, "cr.cc", []byte(strings.Join(lines, "\r")))
	res = runDir(t, dir, Options{})
	for _, f := range res.Findings {
		if f.At.Start.File == "cr.cc" && f.Suppressed == "" {
			t.Errorf("cr.cc: a directive on the line above did not suppress %q at line %d; notices %+v", f.Message, f.At.Start.Line, res.Notices)
		}
	}
	if got := strings.Split(string(res.Sources["cr.cc"]), "\n"); len(got) < 8 || !strings.Contains(got[7], "Transmit(raw)") {
		t.Errorf("cr.cc: line 8 of the kept source is not the finding's line: %q", got)
	}
	if len(plain) == 0 || len(bom) != len(plain) {
		t.Fatalf("bom.cc: %d findings, plain.cc %d", len(bom), len(plain))
	}
	for i := range bom {
		if bom[i].Line != plain[i].Line || bom[i].Col != plain[i].Col {
			t.Errorf("bom.cc: finding at %d:%d, without the BOM %d:%d", bom[i].Line, bom[i].Col, plain[i].Line, plain[i].Col)
		}
	}
}

// TestRefusedConfigIsAWarning: a default configuration that was not read
// is a warning and counts as skipped (exit status 3).
func TestRefusedConfigIsAWarning(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "buggy.cc", []byte(buggy))
	res := runDir(t, dir, Options{Config: &config.Config{Refused: "not read: not a regular file"}})
	if !noticeFor(res, ".holdfast.yaml", "not a regular file") || res.Skipped != 1 || !findingIn(res, "buggy.cc") {
		t.Errorf("notices %+v, skipped %d", res.Notices, res.Skipped)
	}
}
