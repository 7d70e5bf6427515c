//go:build unix

package safeio

import (
	"errors"
	"syscall"
)

// Opening a FIFO for reading blocks until a writer comes, and for writing
// until a reader does; O_NONBLOCK makes both return at once, so Stat can
// refuse it. It changes nothing for regular files. O_NOCTTY keeps a
// terminal device from becoming the controlling terminal.
const (
	readFlags  = syscall.O_NONBLOCK | syscall.O_NOCTTY
	writeFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
	noFollow   = syscall.O_NOFOLLOW
)

// isLoop reports the error O_NOFOLLOW gives for a symbolic link.
func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}
