package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/discover"
	"github.com/holdfast-dev/holdfast/internal/safeio"
)

// checkOutputPath runs before the scan and says how to open the output
// path. -o is the user's own choice on the command line: a path outside
// the working tree (the scan root, links in its directory resolved) is
// written as named, through links and into character devices (-o
// /dev/null, -o /dev/stdout, -o ../report.json). Inside the tree, where a
// repository could have planted what is there, it refuses
//
//   - a file that is a symbolic link (a committed "holdfast.sarif ->
//     ~/.bashrc") or anything but a regular file or a character device;
//   - a directory that leads through a link out of the tree ("-o link/x"
//     where link is a committed link to a directory elsewhere).
//
// Anywhere, it refuses a path with a scanned source extension, so a report
// cannot overwrite a source file. free says the path is outside the tree;
// otherwise safeio.Create opens it, refusing a link again in case one
// appears meanwhile. "" and "-" mean standard output.
func checkOutputPath(path, root string) (free bool, err error) {
	if path == "" || path == "-" {
		return false, nil
	}
	ext := strings.ToLower(filepath.Ext(path))
	if slices.Contains(discover.DefaultExtensions(), ext) {
		return false, fmt.Errorf("output %q has the extension of a scanned source (%s); refusing to overwrite source", path, ext)
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, path)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false, fmt.Errorf("scan root: %w", err)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, fmt.Errorf("output %q: directory %s does not exist", path, filepath.Dir(abs))
		}
		return false, fmt.Errorf("output %q: %w", path, err)
	}
	if !inside(root, abs) && !inside(realRoot, dir) {
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			return false, fmt.Errorf("output %q is a directory", path)
		}
		return true, nil
	}
	if fi, err := os.Lstat(abs); err == nil {
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return false, fmt.Errorf("output %q is a symbolic link inside the scanned tree; refusing to write through it (remove it, or name the file it points to)", path)
		case fi.Mode()&fs.ModeCharDevice != 0:
			return true, nil
		case !fi.Mode().IsRegular():
			return false, fmt.Errorf("output %q is not a regular file", path)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("output %q: %w", path, err)
	}
	if !inside(realRoot, dir) {
		return false, fmt.Errorf("output %q leads through a symbolic link to %s, outside the scanned tree", path, dir)
	}
	return false, nil
}

// openOutput opens the output path checkOutputPath accepted: as named when
// it is outside the tree (free), through safeio.Create otherwise.
func openOutput(path string, free bool) (*os.File, error) {
	if free {
		return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	}
	return safeio.Create(path)
}

// inside reports whether path is root or below it, lexically.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
