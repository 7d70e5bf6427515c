//go:build !unix

package safeio

// Elsewhere the flags have no portable equivalent; Stat still refuses
// anything but a regular file once it is open.
const (
	readFlags  = 0
	writeFlags = 0
	noFollow   = 0
)

func isLoop(error) bool { return false }
