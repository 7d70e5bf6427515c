// Package safeio reads and writes files that a scanned repository may
// have planted: only regular files are read, never more than a cap
// whatever their size claims to be, opening never blocks (a FIFO is
// refused, not waited on), and writes never follow a symbolic link.
package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is returned for a path that is not a regular file: a
// directory, a FIFO, a device, a socket, or a symbolic link where links
// are refused.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is returned for a file with more bytes than the cap.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("larger than the limit of %d bytes", e.Limit)
}

// Options adjust ReadFile.
type Options struct {
	// NoFollow refuses a symbolic link as the last element of the path.
	NoFollow bool
}

// ReadFile returns the contents of the regular file at path, reading at
// most limit+1 bytes: a file with more than limit bytes is a
// *TooLargeError whatever stat says (files under /proc claim size 0).
// Anything but a regular file is ErrNotRegular, found without blocking.
// Errors are *fs.PathError.
func ReadFile(path string, limit int64, opt Options) ([]byte, error) {
	data, _, err := ReadFileStat(path, limit, opt)
	return data, err
}

// ReadFileStat is ReadFile that also returns the status of the file it
// read, taken from the open descriptor before the first byte was read:
// a change to the file after that is seen by comparing it with a later
// status.
func ReadFileStat(path string, limit int64, opt Options) ([]byte, fs.FileInfo, error) {
	flags := os.O_RDONLY | readFlags
	if opt.NoFollow {
		flags |= noFollow
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		if opt.NoFollow && isLoop(err) {
			return nil, nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
		}
		return nil, nil, err
	}
	defer func() { _ = f.Close() }() // read-only: nothing to lose on close
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	data, err := readAll(f, st.Size(), limit)
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > limit {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Limit: limit}}
	}
	return data, st, nil
}

// Create opens path for writing, creating it if needed, and empties it.
// It refuses a symbolic link as the last element of the path and
// anything but a regular file, before a byte of it is changed.
func Create(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|noFollow|writeFlags, 0o644)
	if err != nil {
		if isLoop(err) {
			return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("is a symbolic link, which is not followed")}
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err != nil {
		_ = f.Close() // the error that matters is err
		return nil, err
	}
	return f, nil
}

// readAll reads r to its end or to one byte past limit, into a buffer
// sized from what the file's status said (size), so that a file read
// whole is not copied again and again as the buffer grows. The size is
// only a hint: the file may have changed since.
func readAll(r io.Reader, size, limit int64) ([]byte, error) {
	data := make([]byte, 0, max(0, min(size, limit))+1)
	lr := io.LimitReader(r, limit+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := lr.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
