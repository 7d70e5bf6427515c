package main

import (
	"fmt"
	"os"
	"os/exec"
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
