package scan

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// rssKB reads the resident set size of this process (Linux).
func rssKB(t *testing.T) int {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no VmRSS line")
	return 0
}

// TestRepeatedScansDoNotLeak scans the same tree many times in one
// process. Every tree-sitter parser and tree lives in C memory the Go
// collector cannot see, so a missing Close shows up as RSS that grows
// with every scan.
func TestRepeatedScansDoNotLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	for i := range 20 {
		write(t, dir, filepath.Join("src", strconv.Itoa(i)+".cc"), []byte(strings.Repeat(buggy, 40)))
		write(t, dir, filepath.Join("src", strconv.Itoa(i)+".mm"), []byte("@implementation X\n- (void)f { [a b:^{ c(); }]; }\n@end\n"+buggy))
	}
	settle := func() int {
		runtime.GC()
		debug.FreeOSMemory()
		return rssKB(t)
	}
	for range 5 {
		runDir(t, dir, Options{Jobs: 2})
	}
	before := settle()
	const scans = 40
	for range scans {
		runDir(t, dir, Options{Jobs: 2})
	}
	after := settle()
	// 40 scans of 40 files parse 1,600 trees; leaking each would cost far
	// more than this margin.
	if grow := after - before; grow > 16*1024 {
		t.Errorf("RSS grew by %d KiB over %d scans (%d -> %d KiB)", grow, scans, before, after)
	}
	t.Logf("RSS %d KiB before, %d KiB after %d more scans", before, after, scans)
}
