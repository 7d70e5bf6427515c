package summary

import "syscall"

// statusChanged is the file's status-change time (Linux names it Ctim).
func statusChanged(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
