package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the summary cache of every scan the tests run (in this
// process and in the binaries they start) in a folder of their own, never
// the user's.
func TestMain(m *testing.M) {
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
