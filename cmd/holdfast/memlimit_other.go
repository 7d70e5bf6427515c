//go:build !linux

package main

// usableMemory is unknown here: no soft memory limit is set.
func usableMemory() int64 { return 0 }
