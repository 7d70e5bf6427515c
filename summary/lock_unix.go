//go:build unix

package summary

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on f, waiting for other holdfast
// processes that merge into the same cache file.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// euid is the user the process runs as.
func euid() int { return os.Geteuid() }
