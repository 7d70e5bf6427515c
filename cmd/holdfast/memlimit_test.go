package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMemoryLimit: without GOMEMLIMIT the process gets a soft memory
// limit of half the memory it may use; with it, the runtime's own is left.
func TestMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "3GiB")
	debug.SetMemoryLimit(math.MaxInt64)
	if setMemoryLimit() != 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Error("a limit was set over GOMEMLIMIT")
	}
	t.Setenv("GOMEMLIMIT", "")
	got := setMemoryLimit()
	if runtime.GOOS == "linux" && (got <= 0 || got != debug.SetMemoryLimit(-1) || got > usableMemory()/2) {
		t.Errorf("limit %d (runtime %d), want half of %d", got, debug.SetMemoryLimit(-1), usableMemory())
	}
}
