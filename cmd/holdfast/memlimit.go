package main

import (
	"os"
	"runtime/debug"
)

// setMemoryLimit gives the Go runtime a soft memory limit of half the
// memory this process may use (the machine's, or its cgroup's when less),
// unless GOMEMLIMIT sets one: near it the collector works harder instead
// of letting the heap double, and the scan keeps fewer models between
// its phases (see scan.Options.RetainBytes). It returns the limit set
// (0: none).
func setMemoryLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	avail := usableMemory()
	if avail <= 0 {
		return 0
	}
	debug.SetMemoryLimit(avail / 2)
	return avail / 2
}
