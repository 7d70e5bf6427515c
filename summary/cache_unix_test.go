//go:build unix

package summary

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
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

// TestUpdateWaitsForTheLock: an update takes the cache file's lock before
// it reads what to merge with, so a scan that writes the file while
// another holds the lock (here the test, as another process would) loses
// nothing: the waiting update merges with what was written.
func TestUpdateWaitsForTheLock(t *testing.T) {
	c := Open(t.TempDir())
	root := "/src/project"
	path := filepath.Join(t.TempDir(), "a.cc")
	if err := os.WriteFile(path, []byte("void f();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Lstat(path)
	st, ok := StampOf(info)
	if !ok {
		t.Skip("this system gives no inode or status-change time")
	}
	entry := &Entry{Hash: "h", Stamp: st, Summary: &File{Funcs: []Func{{Name: "f", File: "a.cc"}}}}
	if err := c.Update(root, "k", map[string]*Entry{"first.cc": entry}, nil); err != nil {
		t.Fatal(err)
	}
	base, err := c.Load(root, "k")
	if err != nil {
		t.Fatal(err)
	}
	held, err := os.OpenFile(c.path(root, "k")+".lock", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := lock(held); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.UpdateFrom(base, root, "k", map[string]*Entry{"mine.cc": entry}, nil) }()
	time.Sleep(200 * time.Millisecond) // time enough for an update that does not wait to write
	// The other scan, holding the lock, writes its merge.
	other := &wireTree{Key: "k", Files: []wireEntry{{Rel: "first.cc", Entry: *entry}, {Rel: "theirs.cc", Entry: *entry}}}
	if err := os.WriteFile(c.path(root, "k"), encodeTree(other), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = held.Close() // releases the lock
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(root, "k")
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"first.cc", "theirs.cc", "mine.cc"} {
		if got.Files[rel] == nil {
			t.Errorf("%s lost; the cache holds %v", rel, slices.Sorted(maps.Keys(got.Files)))
		}
	}
}
