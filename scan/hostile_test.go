package scan

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/diag"
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
			if f.At.Start.Line != 5 {
				t.Errorf("%s: finding on line %d, want 5", f.At.Start.File, f.At.Start.Line)
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
	res := runDir(t, dir, Options{ParseTimeout: 50 * time.Millisecond})
	if !noticeFor(res, "slow.cc", "parse time budget exceeded") {
		t.Errorf("no timeout notice: %+v", res.Notices)
	}
	if !findingIn(res, "buggy.cc") {
		t.Error("the scan did not go on after the timeout")
	}
}

func TestVerifyIsCalledPerFinding(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "buggy.cc", []byte(buggy))
	calls := 0
	res := runDir(t, dir, Options{Verify: func(f *diag.Finding) *diag.Verification {
		calls++
		return &diag.Verification{Verdict: diag.NotModelled}
	}})
	if calls != len(res.Findings) || calls == 0 {
		t.Errorf("verify called %d times for %d findings", calls, len(res.Findings))
	}
}
