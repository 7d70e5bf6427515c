//go:build darwin || freebsd

package summary

import "syscall"

// statusChanged is the file's status-change time (the BSDs name it
// Ctimespec).
func statusChanged(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
