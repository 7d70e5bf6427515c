//go:build unix

package summary

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The cache file is opened without blocking: a FIFO where it belongs is
// refused at once, and so is a link.
func TestCacheRefusesSpecialFiles(t *testing.T) {
	c := Open(t.TempDir())
	if err := syscall.Mkfifo(c.path("/r", "k"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := c.Load("/r", "k"); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO must be reported, not read")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("loading a FIFO cache blocked")
	}
	target := filepath.Join(t.TempDir(), "elsewhere.sum")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, c.path("/r", "k2")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load("/r", "k2"); err == nil {
		t.Error("a link where the cache belongs must not be followed")
	}
}
