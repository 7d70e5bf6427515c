package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain keeps the summary cache of every scan the tests run (in this
// process and in the binaries they start) in a folder of their own, never
// the user's. The go builds tests run keep the user's Go build cache,
// which follows XDG_CACHE_HOME unless GOCACHE names it.
func TestMain(m *testing.M) {
	if os.Getenv("GOCACHE") == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
		}
	}
	dir, err := os.MkdirTemp("", "holdfast-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestUnusableCacheDirWarns: a --cache-dir that is a file, or lies under
// one, is not silently ignored: the scan goes on without the cache and
// says why, with the exit status of a clean scan.
func TestUnusableCacheDirWarns(t *testing.T) {
	outside := t.TempDir()
	file := filepath.Join(outside, "afile")
	writeFile(t, file, "")
	tree(t, map[string]string{"a.cc": clean})
	for _, dir := range []string{file, filepath.Join(file, "sub")} {
		out, errs := expect(t, 0, "scan", "--cache-dir", dir, "a.cc")
		if !strings.Contains(out+errs, dir+": warning: summary cache not used:") {
			t.Errorf("--cache-dir %s: no warning that the cache is not used:\n%s%s", dir, out, errs)
		}
	}
}
