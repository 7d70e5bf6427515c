//go:build linux || darwin || freebsd

package summary

import (
	"io/fs"
	"syscall"
)

// sysStamp reads what a user cannot set back from the file's status: its
// inode and the time its status last changed.
func sysStamp(info fs.FileInfo) (ino, ctime int64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int64(st.Ino), statusChanged(st), true
}

// sysOwner returns the owner of the file.
func sysOwner(info fs.FileInfo) (uid int, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
