package safeio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.cc")
	if err := os.WriteFile(small, []byte("int x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(small, 7, Options{}); err != nil || string(b) != "int x;\n" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(small, 6, Options{}); !errors.As(err, &tl) || tl.Limit != 6 {
		t.Errorf("one byte over the cap: %v, want a TooLargeError", err)
	}
	// /dev/zero never ends and stat calls it a device: refused unread.
	if _, err := ReadFile("/dev/zero", 1<<20, Options{}); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: %v, want ErrNotRegular", err)
	}
	// Files under /proc claim size 0 and hold more: the cap holds anyway.
	if _, err := os.Stat("/proc/self/pagemap"); err == nil {
		// (Reads of it that are not a multiple of 8 fail; any error will
		// do, as long as gigabytes are not read.)
		if _, err := ReadFile("/proc/self/pagemap", 1<<16, Options{}); err == nil {
			t.Error("/proc/self/pagemap was read whole")
		}
	}
	link := filepath.Join(dir, "link.cc")
	if err := os.Symlink(small, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link, 100, Options{}); err != nil {
		t.Errorf("link followed by default: %v", err)
	}
	if _, err := ReadFile(link, 100, Options{NoFollow: true}); !errors.Is(err, ErrNotRegular) {
		t.Errorf("link with NoFollow: %v, want ErrNotRegular", err)
	}
}

// TestReadFIFO: opening a FIFO for reading waits for a writer forever; it
// must be refused at once instead. The test would hang, not fail, without
// the fix, so it runs the read in a goroutine and gives up after a long
// while.
func TestReadFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.cc")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(fifo, 100, Options{}); done <- err }()
	if err := waitErr(t, done); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v, want ErrNotRegular", err)
	}
	go func() {
		f, err := Create(fifo)
		if err == nil {
			_ = f.Close()
		}
		done <- err
	}()
	if err := waitErr(t, done); err == nil {
		t.Error("Create opened a FIFO")
	}
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "holdfast.sarif")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if f, err := Create(link); err == nil {
		_ = f.Close()
		t.Error("Create followed a symbolic link")
	} else if !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("error %q does not say why", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Errorf("the link's target was changed to %q", b)
	}
	if f, err := Create(dir); err == nil {
		_ = f.Close()
		t.Error("Create opened a directory")
	}
	out := filepath.Join(dir, "out.json")
	if err := os.WriteFile(out, []byte("old contents, longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("new"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); string(b) != "new" {
		t.Errorf("Create did not empty the file: %q", b)
	}
}

// The size a file's status gives is a hint: a file that grew or shrank
// since is read whole, and the cap holds whatever the hint said.
func TestReadAllSizeHint(t *testing.T) {
	src := strings.Repeat("abcdefgh", 1000)
	for _, hint := range []int64{0, 1, 7999, 8000, 8001, 1 << 20} {
		b, err := readAll(strings.NewReader(src), hint, 1<<20)
		if err != nil || string(b) != src {
			t.Errorf("hint %d: %d bytes, %v; want all %d", hint, len(b), err, len(src))
		}
		b, err = readAll(strings.NewReader(src), hint, 100)
		if err != nil || len(b) != 101 {
			t.Errorf("hint %d, cap 100: %d bytes, %v; want 101 (one past the cap)", hint, len(b), err)
		}
	}
}
