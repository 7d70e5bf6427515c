//go:build !unix

package summary

import "os"

// lock is not available here: concurrent scans may lose each other's
// cache updates (never results: a lost entry is computed again).
func lock(*os.File) error { return nil }

// euid is unknown here.
func euid() int { return -1 }
